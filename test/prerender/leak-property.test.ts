import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { fixtureApp, buildOptions } from '../helpers.ts'
import { type LeakTree, laterSpec, leakedMarkers, treeSpec, writeLeakTree } from '../routes/leak-tree.ts'

// The leak property in dist/: `almanac build` over a generated tree (see test/routes/leak-tree.ts)
// writes no file that contains a marker of a record that is not public, or of a protected field; and a build into
// the dist/ of an earlier build leaves what a build into an empty folder writes, whatever was made private since.
// FC_SEED=<n> replays a failure.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_BUILD_RUNS ?? 3)

async function builtFiles(out: string): Promise<[string, string][]> {
  const entries = await readdir(out, { recursive: true, withFileTypes: true })
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
  return Promise.all(
    files.map(async (file) => [file.slice(out.length), await readFile(file, 'utf8')] as [string, string]),
  )
}

describe('almanac build and the leak property', () => {
  it('no built file contains a marker', async () => {
    await fc.assert(
      fc.asyncProperty(treeSpec, async (spec) => {
        const tree = await writeLeakTree(spec)
        const out = await mkdtemp(join(tmpdir(), 'almanac-leak-dist-'))
        try {
          // fixtureApp takes an absolute folder as the fixture: it reads `<dir>/content` in place.
          const app = await fixtureApp(tree.dir)
          expect(app.problems).toEqual([])
          await buildSite(buildOptions(app.store, out))
          const files = await builtFiles(out)
          expect(files.length).toBeGreaterThan(10)
          for (const [file, text] of files)
            expect(leakedMarkers(text, tree.markers, ''), `dist${file} (seed ${SEED})`).toEqual([])
        } finally {
          await rm(out, { recursive: true, force: true })
          await rm(tree.dir, { recursive: true, force: true })
        }
      }),
      // Each run builds a site: no shrinking, the seed and the failing file say enough.
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    )
  })

  it("a build into an earlier build's dist/ leaves what a fresh build writes", async () => {
    const states = treeSpec.chain((before) => laterSpec(before).map((after) => ({ before, after })))
    await fc.assert(
      fc.asyncProperty(states, async ({ before, after }) => {
        const trees = [await writeLeakTree(before), await writeLeakTree(after)]
        const [out, fresh] = [
          await mkdtemp(join(tmpdir(), 'almanac-again-')),
          await mkdtemp(join(tmpdir(), 'almanac-fresh-')),
        ]
        try {
          // The same records, their statuses and passwords drawn again: a record public in the first build may be a
          // draft, private or protected in the second, and its files from the first must go.
          const build = async (tree: LeakTree, into: string) =>
            buildSite(buildOptions((await fixtureApp(tree.dir)).store, into))
          await build(trees[0]!, out)
          await build(trees[1]!, out)
          await build(trees[1]!, fresh)
          const [again, anew] = [await builtFiles(out), await builtFiles(fresh)]
          expect(again.map(([file]) => file).sort(), `files (seed ${SEED})`).toEqual(anew.map(([file]) => file).sort())
          expect(new Map(again), `bytes (seed ${SEED})`).toEqual(new Map(anew))
          for (const [file, text] of again)
            expect(leakedMarkers(`${file}\n${text}`, trees[1]!.markers, ''), `dist${file} (seed ${SEED})`).toEqual([])
        } finally {
          for (const dir of [out, fresh, ...trees.map((tree) => tree.dir)])
            await rm(dir, { recursive: true, force: true })
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    )
  })
})
