import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { postDates } from '../../src/content/model/derive.ts'
import type { ContentRecord, Store } from '../../src/content/store.ts'
import type { ListedKind } from '../../src/context/indexes.ts'
import type { Lang } from '../../src/languages.ts'
import { createRecordOrder } from '../../src/query/record-order.ts'

const ZONE = 'Asia/Singapore'
const KINDS: ListedKind[] = ['venues', 'organizers', 'categories', 'tags']
const LANGS: Lang[] = ['en', 'ms']
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

/** A record of `kind` with a publication date (or none: then its file time dates it) and names in two languages. */
function record(kind: ListedKind, id: number, day: number | null, en: string, ms: string | null): ContentRecord {
  const data: Record<string, unknown> = { id, name: en }
  if (day !== null) data.date = `2026-01-${String(1 + (day % 28)).padStart(2, '0')} 10:00:00`
  const source = {
    path: `${kind}/${id}.md`,
    lang: 'en' as Lang,
    data,
    body: '',
    undatedMs: day === null ? id * 1000 : 0,
  }
  const files = new Map([['en' as Lang, source]])
  if (ms !== null) files.set('ms', { ...source, path: `${kind}/${id}.ms.md`, lang: 'ms', data: { name: ms } })
  return { kind, id, stem: String(id), source, files }
}

/** Only what the order reads of a store: its records and their fields in a language (falling back to the source). */
function storeOf(records: Map<string, ContentRecord>): Store {
  return {
    list: (kind: string) => [...records.values()].filter((r) => r.kind === kind),
    fieldsIn: (r: ContentRecord, lang: Lang) => ({ ...(r.files.get(lang) ?? r.source).data, description: '' }),
  } as unknown as Store
}

/** The lists' order before the index: every record sorted with the comparator the queries used. */
function sortedOldWay(store: Store, kind: ListedKind, lang: Lang): number[] {
  const list = [...store.list(kind)]
  if (kind === 'venues' || kind === 'organizers')
    list.sort((a, b) => postDates(b, ZONE).published - postDates(a, ZONE).published || b.id - a.id)
  else {
    const name = (r: ContentRecord) => String(store.fieldsIn(r, lang)?.name ?? '')
    list.sort((a, b) => name(a).localeCompare(name(b)) || a.id - b.id)
  }
  return list.map((r) => r.id)
}

const edit = fc.record({
  kind: fc.constantFrom(...KINDS),
  id: fc.integer({ min: 1, max: 12 }),
  remove: fc.boolean(),
  day: fc.option(fc.integer({ min: 0, max: 5 })),
  en: fc.constantFrom('Alpha', 'alpha', 'Beta', 'Émile', 'zeta', ''),
  ms: fc.option(fc.constantFrom('Alfa', 'Beta', 'Zed')),
})

describe('the record order of venue, organizer and term lists', () => {
  it('equals sorting every record with the old comparator, after any run of adds, changes and removals', () => {
    fc.assert(
      fc.property(
        fc.array(edit, { maxLength: 40, size: 'max' }),
        fc.array(fc.nat(), { maxLength: 40, size: 'max' }),
        (edits, reads) => {
          const records = new Map<string, ContentRecord>()
          const store = storeOf(records)
          const order = createRecordOrder(store, ZONE)
          edits.forEach((e, i) => {
            const key = `${e.kind}/${e.id}`
            const before = records.get(key)
            const after = e.remove ? undefined : record(e.kind, e.id, e.day, e.en, e.ms)
            if (after) records.set(key, after)
            else records.delete(key)
            order.update(before, after)
            // Reads between edits, so a stale order would show.
            const kind = KINDS[(reads[i] ?? 0) % KINDS.length]!
            const lang = LANGS[(reads[i] ?? 0) % LANGS.length]!
            expect(order.ordered(kind, lang).map((r) => r.id)).toEqual(sortedOldWay(store, kind, lang))
          })
          for (const kind of KINDS)
            for (const lang of LANGS)
              expect(order.ordered(kind, lang).map((r) => r.id)).toEqual(sortedOldWay(store, kind, lang))
        },
      ),
      { numRuns: 150, seed },
    )
  })
})
