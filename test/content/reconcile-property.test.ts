import { lstatSync } from 'node:fs'
import { lstat, mkdir, mkdtemp, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDiskDriver } from '../../src/content/store/disk-driver.ts'
import { changedSince, PACE, type Pace } from '../../src/content/store/reconcile.ts'
import { type FileStamp, stampOf } from '../../src/content/files/read.ts'

// The whole-tree comparison a live server runs once its watcher is ready and after news on disk
// (src/content/store/reconcile.ts), against the disk itself: after random edits of a tree the driver read,
// it names exactly the record files that are not as they were read (rewritten, even to the same bytes and
// times; touched; removed; replaced by a link or a folder; added), and no other. Files were read an hour
// after they were last modified, so their stamps decide, not their texts. The comparison runs at its own pace
// (through the driver), with a turn of the event loop after every file, and with every file after the first slice
// taken through the pool, as on a slow file system. FC_SEED=<n> replays a failure.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 40)
const AN_HOUR_AGO = new Date(Date.now() - 3_600_000)

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(os.tmpdir(), 'almanac-reconcile-'))
  await writeFile(join(root, 'target.md'), 'what a link names')
})
afterAll(() => rm(root, { recursive: true, force: true }))

/** A turn of the loop after every file, and the same with every file after the first slice taken on the pool. */
const PACES: Pace[] = [PACE, { sliceMs: 0, slowLstatUs: 100 }, { sliceMs: 0, slowLstatUs: 0 }]

/** Each path's stamp now, as the disk driver takes it when it reads the file. */
function stampsOf(dir: string, paths: readonly string[]): Map<string, FileStamp> {
  return new Map(paths.map((path) => [path, stampOf(lstatSync(join(dir, path)))]))
}

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((stem) => [`events/${stem}.en.md`, `venues/${stem}.ms.md`])
type Edit = 'rewrite' | 'same bytes' | 'touch' | 'remove' | 'link' | 'folder' | 'add' | 'hidden' | 'not markdown'
const edit = fc.record({
  kind: fc.constantFrom<Edit>(
    'rewrite',
    'same bytes',
    'touch',
    'remove',
    'link',
    'folder',
    'add',
    'hidden',
    'not markdown',
  ),
  at: fc.nat({ max: NAMES.length - 1 }),
})

/** Writes `text` at `path` as last modified at `when` (an hour ago). */
async function writeOld(path: string, text: string, when = AN_HOUR_AGO): Promise<void> {
  await writeFile(path, text)
  await utimes(path, when, when)
}

/** Removes a link or a folder at `path`, so that a write there makes a file of its own. */
async function clear(path: string): Promise<void> {
  const stats = await lstat(path).catch(() => null)
  if (stats && !stats.isFile()) await rm(path, { recursive: true, force: true })
}

describe('the comparison of the tree with what the store read', () => {
  let run = 0
  it('names every record file changed on disk since it was read, and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(NAMES, { minLength: 1 }),
        fc.array(edit, { maxLength: 8 }),
        fc.constantFrom(...PACES),
        async (read, edits, pace) => {
          const dir = join(root, String(run++))
          await mkdir(join(dir, 'events'), { recursive: true })
          await mkdir(join(dir, 'venues'), { recursive: true })
          for (const path of read) await writeOld(join(dir, path), `---\nid: 1\n---\n${path}\n`)
          const driver = createDiskDriver(dir)
          const texts = new Map<string, string>()
          for (const path of read) {
            const got = driver.read(path)
            if (got && !('refused' in got)) texts.set(path, got.text)
          }
          const stamps = stampsOf(dir, read)
          // Rewritten with the same bytes and times, a file differs only by its change time, which some kernels keep
          // to a clock tick (1–4 ms): the edits come a few ticks after the reads.
          await new Promise((resolve) => setTimeout(resolve, 20))
          const expected = new Set<string>()
          for (const { kind, at } of edits) {
            const path = NAMES[at]!
            const file = join(dir, path)
            const there = texts.has(path) || expected.has(path)
            if (kind === 'hidden' || kind === 'not markdown') {
              const name = kind === 'hidden' ? `.${path.split('/')[1]}` : `${path.split('/')[1]}.txt`
              await writeFile(join(dir, path.split('/')[0]!, name), 'not a record file')
              continue
            }
            // Something there already (a file, a link or a folder) is not added to: the edit does nothing. Asked
            // before the clearing below, which would otherwise take away a link left at a path never read.
            if (kind === 'add' && there) continue
            // A link or a folder left by an earlier edit goes first: nothing here writes through a link.
            if (kind !== 'remove' && kind !== 'link' && kind !== 'folder') await clear(file)
            if (kind === 'add') await writeOld(file, 'new')
            else if (!there) continue
            else if (kind === 'rewrite') await writeOld(file, `---\nid: 2\n---\nchanged ${path}\n`)
            else if (kind === 'same bytes') await writeOld(file, texts.get(path) ?? 'new')
            else if (kind === 'touch') {
              if (await lstat(file).catch(() => null)) await utimes(file, new Date(), new Date())
              else await writeOld(file, 'new', new Date())
            } else {
              await rm(file, { recursive: true, force: true })
              // A link to a file of the test's own, never outside it.
              if (kind === 'link') await symlink(join(root, 'target.md'), file)
              if (kind === 'folder') await mkdir(file)
            }
            // Whatever was done, the file is no longer the one read; one added and removed again is nothing.
            if (kind === 'remove' && !texts.has(path)) expected.delete(path)
            else expected.add(path)
          }
          const changed =
            pace === PACE
              ? await driver.changed(texts, new Map())
              : await changedSince(dir, { stamps, texts, media: new Map() }, pace)
          expect(changed, `seed ${SEED}`).toEqual([...expected].sort())
        },
      ),
      { numRuns: RUNS, seed: SEED },
    )
  })

  it.each(PACES)('finds every change among thousands of files, however the loop is shared (%o)', async (pace) => {
    // What was found before a turn of the loop, or before the rest went to the pool, still counts after it.
    const dir = join(root, `many-${pace.sliceMs}-${pace.slowLstatUs}`)
    await mkdir(join(dir, 'events'), { recursive: true })
    const paths = Array.from({ length: 2_000 }, (_, i) => `events/e${i}.en.md`)
    for (const path of paths) await writeOld(join(dir, path), `---\nid: 1\n---\n${path}\n`)
    const texts = new Map(paths.map((path) => [path, `---\nid: 1\n---\n${path}\n`]))
    const stamps = stampsOf(dir, paths)
    const edited = paths.filter((_, i) => i % 7 === 3)
    for (const [i, path] of edited.entries())
      if (i % 2) await unlink(join(dir, path))
      else await writeOld(join(dir, path), 'rewritten')
    await writeOld(join(dir, 'events/added.en.md'), 'added')
    const changed = await changedSince(dir, { stamps, texts, media: new Map() }, pace)
    expect(changed).toEqual(['events/added.en.md', ...edited].sort())
  })
})
