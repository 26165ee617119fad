import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { groupByRecord } from '../../src/content/store/entries.ts'
import type { FileEntry } from '../../src/content/model/record-types.ts'

// A load hands groupByRecord one sorted run per kind folder, and it no longer sorts those again: the
// groups must be what a full sort by path gives, however the entries come.

const entry = (path: string) => ({ path, lang: 'en', data: {}, body: '', undatedMs: 0 }) as unknown as FileEntry

/** Groups as they were made before: every entry sorted by path, keyed by kind and stem. */
function reference(entries: FileEntry[]): [string, string, string[]][] {
  const groups = new Map<string, string[]>()
  for (const { path } of [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const key = `${path.split('/')[0]}/${path.slice(path.indexOf('/') + 1).split('.')[0]}`
    groups.set(key, [...(groups.get(key) ?? []), path])
  }
  return [...groups].map(([key, paths]) => [key.split('/')[0]!, key.split('/')[1]!, paths])
}

const name = fc.stringMatching(/^[a-c]{1,3}(\.(ms|ta|zh))?(\.md)?$/)
const path = fc.tuple(fc.constantFrom('events', 'venues', 'tags', 'categories'), name).map(([k, n]) => `${k}/${n}`)

describe('grouping the files of a load by record', () => {
  it('gives the groups of a full sort by path, for sorted runs per folder and for any order', () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
    fc.assert(
      fc.property(fc.uniqueArray(path, { maxLength: 40, size: 'max' }), fc.boolean(), (paths, byFolder) => {
        const entries = byFolder
          ? ['events', 'venues', 'tags', 'categories'].flatMap((kind) =>
              paths.filter((p) => p.startsWith(`${kind}/`)).sort(),
            )
          : paths
        const groups = groupByRecord(entries.map(entry)).map(([kind, stem, files]) => [
          kind,
          stem,
          files.map((f) => f.path),
        ])
        expect(groups).toEqual(reference(entries.map(entry)))
      }),
      { numRuns: 300, seed },
    )
  })
})
