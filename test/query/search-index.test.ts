import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStore, type ContentRecord, type Store } from '../../src/content/store.ts'
import { createSearchIndex, INDEXED_DESCRIPTION } from '../../src/query/search.ts'

// A small tree of events over a small vocabulary (words that begin one another, so prefixes
// matter), searched through the real store and index and compared with a plain reading of the text.
const VOCABULARY = [
  'night',
  'nightfall',
  'market',
  'jazz',
  'jazzy',
  'walk',
  'lantern',
  'garden',
  'gar',
  'a',
  'an',
  'and',
]
const EVENTS = 40

let dir: string
let store: Store
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-search-'))
  await mkdir(join(dir, 'events'), { recursive: true })
  const word = (n: number) => VOCABULARY[(n * 7 + 3) % VOCABULARY.length]!
  for (let n = 0; n < EVENTS; n++) {
    const title = [word(n), word(n * 3 + 1)].join(' ')
    const excerpt = word(n * 5 + 2)
    const description = [word(n * 11 + 4), word(n * 13 + 5), word(n * 2)].join(', ')
    const lines = ['---', `id: ${100 + n}`, `title: ${title}`, `slug: e${n}`, `excerpt: ${excerpt}`]
    lines.push('start_date: 2026-12-20 18:00:00', 'end_date: 2026-12-20 20:00:00', 'timezone: UTC', '---', description)
    await writeFile(join(dir, 'events', `e${n}.en.md`), `${lines.join('\n')}\n`)
  }
  store = await createStore(dir, { defaultLanguage: 'en', fallback: true, onProblem: () => {} })
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[\s\p{P}\p{S}]+/u)
    .filter(Boolean)

/** What a search must find, read straight from the text: every word, the last also as a prefix. */
function expected(records: ContentRecord[], query: string): number[] {
  const terms = wordsOf(query)
  if (terms.length === 0) return []
  const last = terms[terms.length - 1]!
  return records
    .filter((record) => {
      const fields = store.fieldsIn(record, 'en')!
      const words = wordsOf(`${fields.title} ${fields.excerpt} ${fields.description}`)
      return terms.slice(0, -1).every((term) => words.includes(term)) && words.some((word) => word.startsWith(last))
    })
    .map((record) => record.id)
    .sort()
}

const found = (index: ReturnType<typeof createSearchIndex>, query: string) => [...index.match(query)].sort()

function changed(record: ContentRecord, data: Record<string, unknown>, body = record.source.body): ContentRecord {
  const source = { ...record.source, data: { ...record.source.data, ...data }, body }
  return {
    ...record,
    source,
    files: new Map([...record.files].map(([lang, file]) => [lang, file === record.source ? source : file])),
  }
}

describe('the search index', () => {
  const query = fc.array(
    fc.oneof(
      fc.constantFrom(...VOCABULARY),
      fc.constantFrom(...VOCABULARY).map((word) => word.slice(0, 1 + (word.length >> 1))),
    ),
    { maxLength: 5 },
  )

  it('finds the events holding every word of a search, the last also as a prefix, in any order and repeated', () => {
    const index = createSearchIndex(store, 'en')
    fc.assert(
      fc.property(query, (words) => {
        const search = words.join(' ')
        expect(found(index, search)).toEqual(expected(store.list('events'), search))
      }),
      { numRuns: 300, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    )
  })

  it('follows changed, removed and added events as a fresh index would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(EVENTS - 1), fc.constantFrom('change', 'remove', 'protect')), { maxLength: 8 }),
        query,
        (edits, words) => {
          // Built at once: this property edits the index alone, not the store, and an index still filling in the
          // background would take a removed or changed event back from the store it reads.
          const index = createSearchIndex(store, 'en', false)
          const records = new Map(store.list('events').map((record) => [record.id, record]))
          for (const [at, edit] of edits) {
            const before = records.get(100 + at)
            const after =
              edit === 'remove'
                ? undefined
                : changed(
                    before ?? store.get('events', 100 + at)!,
                    edit === 'protect' ? { password: 'x' } : { title: `moved ${VOCABULARY[at % VOCABULARY.length]}` },
                    'jazzy lantern',
                  )
            index.update(before, after)
            if (after) records.set(after.id, after)
            else records.delete(100 + at)
          }
          const visible = [...records.values()].map((record) =>
            record.source.data.password ? changed(record, { excerpt: '' }, '') : record,
          )
          expect(found(index, words.join(' '))).toEqual(expected(visible, words.join(' ')))
        },
      ),
      { numRuns: 100, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    )
  })

  it('finds a word within the first 32,768 characters of a description, not one after them', () => {
    const index = createSearchIndex(store, 'en')
    const record = store.list('events')[0]!
    const filler = 'x '.repeat((INDEXED_DESCRIPTION - 'inside '.length) / 2)
    index.update(record, changed(record, {}, `inside ${filler}beyond`))
    expect(found(index, 'inside')).toEqual([record.id])
    expect(found(index, 'beyond')).toEqual([])
  })

  it('cuts a title and an excerpt as it cuts a description: a 4 MB one from a content file is not indexed whole', () => {
    const index = createSearchIndex(store, 'en')
    const record = store.list('events')[0]!
    const filler = 'x '.repeat((INDEXED_DESCRIPTION - 'inside '.length) / 2)
    index.update(record, changed(record, { title: `inside ${filler}after`, excerpt: `within ${filler}behind` }, ''))
    expect(found(index, 'inside')).toEqual([record.id])
    expect(found(index, 'within')).toEqual([record.id])
    expect(found(index, 'after')).toEqual([])
    expect(found(index, 'behind')).toEqual([])
  })

  it('keeps the matches of past searches within a bound on their bytes, however many events each matches', () => {
    const bounds = { searches: 512, bytes: 1000 }
    const index = createSearchIndex(store, 'en', false, bounds)
    const searches = VOCABULARY.flatMap((word) => [word, word.slice(0, 1), `${word} a`])
    let most = 0
    for (const search of searches) {
      const matched = index.match(search)
      expect(found(index, search)).toEqual(expected(store.list('events'), search))
      // The newest search is kept: asked again, it is the same set.
      expect(index.match(search)).toBe(matched)
      most = Math.max(most, index.kept.bytes)
      expect(index.kept.bytes).toBeLessThanOrEqual(bounds.bytes)
    }
    expect(index.kept.searches).toBeGreaterThan(1)
    expect(most).toBeGreaterThan(bounds.bytes / 2)
    expect(index.kept.searches).toBeLessThan(new Set(searches).size)
  })

  it('finds Chinese words of a sentence many events share as in each of them, whichever was cut first', () => {
    const index = createSearchIndex(store, 'zh-hans')
    const [one, two, three] = store.list('events')
    const shared = '在海滨现场演奏的爵士乐。'
    index.update(one, changed(one!, { title: '河畔' }, shared))
    index.update(two, changed(two!, { title: '钢琴', excerpt: shared }, `${shared}在海滨`))
    index.update(three, changed(three!, { title: '海滨' }, '钢琴，演奏'))
    expect(found(index, '爵士乐')).toEqual([one!.id, two!.id].sort())
    expect(found(index, '海滨')).toEqual([one!.id, two!.id, three!.id].sort())
    expect(found(index, '钢琴 演奏')).toEqual([two!.id, three!.id].sort())
  })

  it('finds Chinese words cut by the segmenter, the last also as a prefix', () => {
    const index = createSearchIndex(store, 'zh-hans')
    const record = store.list('events')[1]!
    index.update(record, changed(record, { title: '河畔爵士乐' }, '在海滨现场演奏的爵士乐。'))
    expect(found(index, '爵士乐')).toEqual([record.id])
    expect(found(index, '海滨 爵')).toEqual([record.id])
    expect(found(index, '海滨 钢琴')).toEqual([])
  })
})
