import type { App } from '../app.ts'
import { idList } from '../content/model/derive.ts'
import type { ContentRecord, Store } from '../content/store.ts'
import type { Kind } from '../content/model/kinds.ts'
import { countsForTerms } from '../content/model/post-state.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import { listEvents } from '../query/events.ts'
import { EVENT_LIST_ARGS } from '../args/events.ts'
import { parseParams } from '../args/parse.ts'
import { namespaceRoot, type Job, type UrlOptions } from './public-urls.ts'

/**
 * The ids of the default event list of a language, in order: what its pages hold, asked as an anonymous
 * caller of the app.
 */
export function eventListIds(app: App, lang: Lang, now: number): number[] {
  const ctx = app.context({ lang, now })
  const { values, given } = parseParams(EVENT_LIST_ARGS, {}, ctx)
  return listEvents(values, given, ctx)
    .all()
    .map((entry) => entry.id)
}

/** Records whose JSON changes when these records change: themselves, and those that embed them or their counts. */
export function touchedRecords(
  store: Store,
  app: App,
  changes: [ContentRecord | undefined, ContentRecord | undefined][],
): Set<string> {
  const touched = new Set<string>()
  // An event that embeds the record, and the series it is an occurrence of: a series' own files embed its venue,
  // organizers and terms too, and the indexes list occurrences only.
  const events = (ids: Iterable<number>) => {
    for (const id of ids) {
      touched.add(`events/${id}`)
      const series = store.get('events', id)?.series?.parent
      if (series) touched.add(`events/${series.id}`)
    }
  }
  for (const [before, after] of changes) {
    const record = (after ?? before)!
    // Both ids: a record whose id changed under the same file leaves files at the old one.
    if (before) touched.add(`${before.kind}/${before.id}`)
    touched.add(`${record.kind}/${record.id}`)
    if (record.kind === 'events') {
      // Term counts move only when an event's terms or its being published change; then every
      // event showing those terms changes too. A title or a date leaves them alone.
      const was = counted(before)
      const is = counted(after)
      const moved = was.length !== is.length || was.some((term, i) => term !== is[i])
      const terms = moved ? new Set([...was, ...is]) : new Set<number>()
      for (const term of terms) {
        touched.add(`${store.kindOfId('term', term) ?? 'categories'}/${term}`)
        events(app.indexes.linked('terms', term))
      }
    } else if (record.kind === 'venues' || record.kind === 'organizers') {
      events(app.indexes.linked(record.kind, record.id))
    } else {
      events(app.indexes.linked('terms', record.id))
      for (const child of store.list('categories'))
        if (child.source.data.parent === record.id) touched.add(`categories/${child.id}`)
    }
  }
  return touched
}

/** The terms an event adds to the counts: its terms while it is published and not protected, none otherwise. */
function counted(record: ContentRecord | undefined): number[] {
  if (!record || !countsForTerms(record.source.data)) return []
  return [...new Set([...idList(record.source.data.categories), ...idList(record.source.data.tags)])].sort(
    (a, b) => a - b,
  )
}

/**
 * The single-record URLs of a record in the languages built that it can be read in: by id, and by slug
 * (whether those are written is the builder's choice).
 */
export function recordUrls(
  store: Store,
  kind: Kind,
  id: number,
  options: UrlOptions,
  langs: readonly Lang[] = options.languages ?? LANGUAGES,
): Job[] {
  const record = store.get(kind, id)
  if (!record) return []
  const jobs: Job[] = []
  for (const lang of langs) {
    if (store.langOf(record, lang) === null) continue
    const root = namespaceRoot(options, lang)
    const byId = `${root}/${kind}/${id}`
    jobs.push({ url: byId, record: `${kind}/${id}` })
    const slug = store.fieldsIn(record, lang)?.slug
    // A slug a record only falls back to may be another record's in this language: that record's
    // answer is the URL's, and its jobs write it.
    if (
      kind === 'categories' ||
      kind === 'tags' ||
      typeof slug !== 'string' ||
      !slug ||
      store.bySlug(kind, lang, slug) !== record
    )
      continue
    const url = `${root}/${kind}/by-slug/${encodeURIComponent(slug)}`
    jobs.push({ url, record: `${kind}/${id}`, sameAs: byId, slug: { lang, slug } })
  }
  return jobs
}

/** Pages of a list whose content changed: all when the count moved, else those holding changed or moved ids. */
export function changedPages(before: number[], after: number[], perPage: number, changed: Set<number>): number[] {
  const pages = Math.max(1, Math.ceil(after.length / perPage))
  const all = Array.from({ length: pages }, (_, i) => i + 1)
  if (before.length !== after.length) return all
  return all.filter((page) => {
    const slice = (ids: number[]) => ids.slice((page - 1) * perPage, page * perPage)
    const next = slice(after)
    return next.join() !== slice(before).join() || next.some((id) => changed.has(id))
  })
}
