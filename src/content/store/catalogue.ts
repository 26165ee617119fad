import { LANGUAGES, type Lang } from '../../languages.ts'
import type { Clashes } from '../checks/clashes.ts'
import { usedFields } from '../checks/unknown-keys.ts'
import { idSpaceOf, TRANSLATABLE, type Kind } from '../model/kinds.ts'
import { type ContentRecord, type FileEntry, isSeries, keyOf, type RecordFields } from '../model/record-types.ts'

type Space = 'post' | 'term'

/**
 * The records in memory and their maps: by key (`kind/stem`), by id in each id space, by slug per
 * kind and language, the files of each record, and each kind's list in id order.
 */
export interface Catalogue {
  /** The records of a kind read from files (series included, their occurrences not), in id order. */
  list(kind: Kind): ContentRecord[]
  /** The events lists show, in id order: single events and the occurrences of series (not the series). */
  events(): ContentRecord[]
  /** The occurrences served for a series' key, in order. */
  occurrencesOf(key: string): ContentRecord[]
  /** How many occurrences are served now, of every series. */
  occurrenceTotal(): number
  /** Serves a series' occurrences (replacing those it had); they hold ids, but no slugs (see bySlug). */
  serveOccurrences(key: string, occurrences: ContentRecord[]): void
  get(kind: Kind, id: number): ContentRecord | undefined
  kindOfId(space: Space, id: number): Kind | undefined
  bySlug(kind: Kind, lang: Lang, slug: string): ContentRecord | undefined
  fieldsIn(record: ContentRecord, lang: Lang): RecordFields | null
  langOf(record: ContentRecord, lang: Lang): Lang | null
  /** The record under a key, served now. */
  record(key: string): ContentRecord | undefined
  /** The key of the record that holds an id. */
  holderOf(space: Space, id: number): string | undefined
  highestId(space: Space): number
  /** The files last put under a key, served or not. */
  filesOf(key: string): FileEntry[]
  /**
   * Whether a record of `kind` has files under `stem` in any case: on a disk that ignores case (macOS, Windows),
   * `jazz.en.md` is `Jazz.en.md`, and a new record written there would replace another's file.
   */
  stemTaken(kind: Kind, stem: string): boolean
  entry(path: string): FileEntry | undefined
  /** Puts a record's files in place (the files of the key that are not among them are dropped). */
  place(key: string, files: FileEntry[]): void
  /** Serves a record under its key, or (undefined) stops serving the key; the id and slug maps follow. */
  serve(key: string, record: ContentRecord | undefined, clashes: Clashes): void
}

export function createCatalogue(fallback: boolean): Catalogue {
  const entries = new Map<string, FileEntry>()
  const byStem = new Map<string, Set<string>>()
  // How many keys with files each key's lower case stands for: a create asks (stemTaken) without a walk of every key.
  const folded = new Map<string, number>()
  const records = new Map<string, ContentRecord>()
  const ids = { post: new Map<number, string>(), term: new Map<number, string>() }
  // By kind, then language: found without making a `kind|lang` string at each ask (a load asks once a file).
  const slugs = new Map<Kind, Map<Lang, Map<string, ContentRecord>>>()
  const slugsIn = (kind: Kind, lang: Lang) => slugs.get(kind)?.get(lang)
  const sorted = new Map<Kind, ContentRecord[]>()
  const occurrences = new Map<string, ContentRecord[]>()
  let occurrenceTotal = 0
  let listed: ContentRecord[] | undefined
  const langOf = (record: ContentRecord, lang: Lang): Lang | null =>
    record.files.has(lang) ? lang : fallback ? record.source.lang : null
  const slugIn = (record: ContentRecord, lang: Lang): unknown => {
    const own = record.files.get(lang)?.data.slug
    if (own !== undefined) return own
    return record.files.has(lang) || fallback ? record.source.data.slug : undefined
  }
  // The highest id of each space, kept as ids come, and found again only when the highest goes (-1: unknown).
  const highest = { post: 0, term: 0 }
  const index = (record: ContentRecord, add: boolean, clashes: Clashes) => {
    const name = idSpaceOf(record.kind)
    const space = ids[name]
    if (add) space.set(record.id, keyOf(record))
    else if (space.get(record.id) === keyOf(record)) space.delete(record.id)
    if (add && highest[name] >= 0) highest[name] = Math.max(highest[name], record.id)
    if (!add && record.id >= highest[name]) highest[name] = -1
    for (const lang of LANGUAGES) {
      const slug = slugIn(record, lang)
      if (typeof slug !== 'string' || slug === '') continue
      if (add) {
        indexSlug(slugMap(slugs, record.kind, lang), record, lang, slug, clashes)
        continue
      }
      // Only the record that holds the slug gives it up: a clash's loser leaves it with the winner.
      const held = slugsIn(record.kind, lang)
      if (held?.get(slug) === record) held.delete(slug)
    }
  }
  return {
    list(kind) {
      let list = sorted.get(kind)
      if (!list)
        sorted.set(
          kind,
          (list = [...records.values()].filter((r) => r.kind === kind && !r.series).sort((a, b) => a.id - b.id)),
        )
      return list
    },
    events() {
      listed ??= [...records.values()].filter((r) => r.kind === 'events' && !isSeries(r)).sort((a, b) => a.id - b.id)
      return listed
    },
    occurrencesOf: (key) => occurrences.get(key) ?? [],
    occurrenceTotal: () => occurrenceTotal,
    serveOccurrences(key, served) {
      for (const occurrence of occurrences.get(key) ?? []) {
        records.delete(keyOf(occurrence))
        if (ids.post.get(occurrence.id) === keyOf(occurrence)) ids.post.delete(occurrence.id)
      }
      occurrenceTotal += served.length - (occurrences.get(key)?.length ?? 0)
      if (served.length > 0) occurrences.set(key, served)
      else occurrences.delete(key)
      for (const occurrence of served) {
        records.set(keyOf(occurrence), occurrence)
        ids.post.set(occurrence.id, keyOf(occurrence))
      }
      listed = undefined
    },
    get(kind, id) {
      const key = ids[idSpaceOf(kind)].get(id)
      const record = key ? records.get(key) : undefined
      return record?.kind === kind ? record : undefined
    },
    kindOfId(space, id) {
      const key = ids[space].get(id)
      return key ? records.get(key)?.kind : undefined
    },
    bySlug(kind, lang, slug) {
      const held = slugsIn(kind, lang)?.get(slug)
      // No series served (a tree without any, and every load before the first settles): nothing to look through.
      if (held || kind !== 'events' || occurrences.size === 0) return held
      // An occurrence's slug is its series' with the date (and time): found through the series.
      const dated = /^(.+)-\d{4}-\d{2}-\d{2}(?:-\d{4})?$/.exec(slug)
      const series = dated ? slugsIn('events', lang)?.get(dated[1]!) : undefined
      return series && occurrences.get(keyOf(series))?.find((occurrence) => slugIn(occurrence, lang) === slug)
    },
    fieldsIn: (record, lang) => fieldsOf(record, langOf(record, lang)),
    langOf,
    record: (key) => records.get(key),
    holderOf: (space, id) => ids[space].get(id),
    highestId(space) {
      if (highest[space] < 0) {
        highest[space] = 0
        for (const [id, key] of ids[space]) if (id > highest[space] && !key.includes('@')) highest[space] = id
      }
      return highest[space]
    },
    filesOf: (key) => [...(byStem.get(key) ?? [])].map((path) => entries.get(path)!),
    stemTaken: (kind, stem) => folded.has(`${kind}/${stem}`.toLowerCase()),
    entry: (path) => entries.get(path),
    place(key, files) {
      const before = byStem.get(key)
      for (const path of before ?? []) if (!files.some((f) => f.path === path)) entries.delete(path)
      const paths = new Set(files.map((f) => f.path))
      byStem.set(key, paths)
      const change = Number(paths.size > 0) - Number((before?.size ?? 0) > 0)
      if (change !== 0) {
        const lower = key.toLowerCase()
        const count = (folded.get(lower) ?? 0) + change
        if (count > 0) folded.set(lower, count)
        else folded.delete(lower)
      }
      for (const file of files) entries.set(file.path, file)
    },
    serve(key, record, clashes) {
      const before = records.get(key)
      if (before) index(before, false, clashes)
      records.delete(key)
      if (before) sorted.delete(before.kind)
      listed = undefined
      if (!record) return
      records.set(key, record)
      sorted.delete(record.kind)
      index(record, true, clashes)
    },
  }
}

/** A record's fields in the language it is served in: the translation's over the source's. */
function fieldsOf(record: ContentRecord, served: Lang | null): RecordFields | null {
  if (!served) return null
  const fields: RecordFields = {
    ...usedFields(record.kind, record.source.data, 'source'),
    description: record.source.body,
  }
  const translation = record.files.get(served)
  if (translation && translation !== record.source) {
    for (const key of TRANSLATABLE[record.kind]) {
      if (key === 'description') {
        if (translation.body) fields.description = translation.body
      } else if (translation.data[key] !== undefined) fields[key] = translation.data[key]
    }
  }
  return fields
}

/** The slugs of a kind in a language, the map made on first use. */
function slugMap(slugs: Map<Kind, Map<Lang, Map<string, ContentRecord>>>, kind: Kind, lang: Lang) {
  let byLang = slugs.get(kind)
  if (!byLang) slugs.set(kind, (byLang = new Map()))
  let map = byLang.get(lang)
  if (!map) byLang.set(lang, (map = new Map()))
  return map
}

/**
 * Two records with one slug in a language: the one whose file (or source, for a language it falls
 * back to) comes first in path order holds it, the same rule as for ids (see clashes.ts).
 */
function indexSlug(map: Map<string, ContentRecord>, record: ContentRecord, lang: Lang, slug: string, clashes: Clashes) {
  const holder = map.get(slug)
  if (holder === record) return
  const pathOf = (r: ContentRecord) => r.files.get(lang)?.path ?? r.source.path
  const [winner, loser] = !holder || pathOf(record) < pathOf(holder) ? [record, holder] : [holder, record]
  map.set(slug, winner)
  if (!loser) return
  clashes.wait(keyOf(winner), keyOf(loser))
  // A record that held the slug with one of its files is settled again: that file is left out.
  // (A record being added never loses a slug one of its files names: assemble left that file out.)
  if (loser === holder && loser.files.has(lang)) clashes.recheck(keyOf(loser))
}
