import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { fixtureApp, buildOptions } from '../helpers.ts'
import { leakedMarkers, treeSpec, writeLeakTree } from '../routes/leak-tree.ts'

// The leak property in dist/: `almanac build` over a generated tree (see test/routes/leak-tree.ts)
// writes no file that contains a marker of a record that is not public, or of a protected field.
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
})
