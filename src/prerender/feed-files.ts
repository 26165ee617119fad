import { idList } from '../content/model/derive.ts'
import type { ContentRecord, Store } from '../content/store.ts'
import type { Kind } from '../content/model/kinds.ts'
import type { Lang } from '../languages.ts'
import { NAMESPACE } from '../namespace.ts'
import { namespaceRoot, type Job, type UrlOptions } from './public-urls.ts'

// The feeds of a static build (docs/feeds.md): the whole calendar, and each category, tag, venue and organizer,
// in every language built; an update renders again those a change can touch.

/** The kinds with a feed of their own, and the event field that links an event to one. */
const SCOPES: [Kind, string][] = [
  ['categories', 'categories'],
  ['tags', 'tags'],
  ['venues', 'venue'],
  ['organizers', 'organizer'],
]

/** Whether a file of the build is a language's whole-calendar feed. */
export function isCalendarFeed(file: string): boolean {
  return file.endsWith(`${NAMESPACE}/events.ics`)
}

/**
 * What the feeds of categories, tags, venues and organizers would weigh, before they are written: each event is
 * in one such feed per category, tag, venue and organizer it has, so about the calendar feeds' bytes times the
 * events' links on average.
 */
export function estimateScopedBytes(store: Store, calendarFeedBytes: number): number {
  const events = store.events()
  if (events.length === 0) return 0
  let links = 0
  for (const event of events) for (const [, field] of SCOPES) links += idList(event.source.data[field]).length
  return Math.round((calendarFeedBytes * links) / events.length)
}

/** Whether a file of the build is the feed of a category, tag, venue or organizer. */
export function isScopedFeed(file: string): boolean {
  return /\/(categories|tags|venues|organizers)\/\d+\/events\.ics$/.test(file)
}

/** The feed URL of a record of one of SCOPES, in a language. */
function scopedFeed(options: UrlOptions, lang: Lang, kind: Kind, id: number): Job {
  return { url: `${namespaceRoot(options, lang)}/${kind}/${id}/events.ics` }
}

/** Every feed of a language: the whole calendar's, then one per record of SCOPES that has a file in it. */
export function feedJobs(store: Store, options: UrlOptions, lang: Lang): Job[] {
  const jobs: Job[] = [{ url: `${namespaceRoot(options, lang)}/events.ics` }]
  for (const [kind] of SCOPES)
    for (const record of store.list(kind))
      if (store.langOf(record, lang) !== null) jobs.push(scopedFeed(options, lang, kind, record.id))
  return jobs
}

/**
 * The feeds a set of changes can touch, in each language: the whole calendar's, and those of every category, tag,
 * venue and organizer a changed event was or is linked to; a changed category, tag, venue or organizer touches
 * them all (its name or place shows in the feeds of every scope of its events). Files whose bytes stay are left.
 */
export function touchedFeeds(
  store: Store,
  changes: [ContentRecord | undefined, ContentRecord | undefined][],
  options: UrlOptions,
  langs: readonly Lang[],
  withScoped: boolean,
): Job[] {
  const records = withScoped ? changes.flatMap((pair) => pair.filter((one) => one !== undefined)) : []
  if (records.some((record) => record.kind !== 'events')) {
    // Every feed there is now, and those of the records of SCOPES as they were: one deleted (or no longer in a
    // language) has no feed in `feedJobs`, and its file would stay, with the events it held, protected ones since.
    const were = changes.flatMap(([before]) =>
      before && SCOPES.some(([kind]) => kind === before.kind) ? [before] : [],
    )
    return langs.flatMap((lang) => {
      const jobs = feedJobs(store, options, lang)
      const asked = new Set(jobs.map((job) => job.url))
      for (const record of were) {
        const job = scopedFeed(options, lang, record.kind, record.id)
        if (!asked.has(job.url)) jobs.push(job)
      }
      return jobs
    })
  }
  const scoped = new Set<string>()
  for (const record of records)
    for (const [kind, field] of SCOPES)
      for (const id of idList(record.source.data[field]))
        for (const one of kind === 'categories' ? withAncestors(store, id) : [id]) scoped.add(`${kind}/${one}`)
  return langs.flatMap((lang) => [
    { url: `${namespaceRoot(options, lang)}/events.ics` },
    ...[...scoped].map((key) => {
      const [kind, id] = key.split('/') as [Kind, string]
      return scopedFeed(options, lang, kind, Number(id))
    }),
  ])
}

/** A category and the categories above it: a category's feed holds the events of its sub-categories. */
function withAncestors(store: Store, id: number): number[] {
  const chain: number[] = []
  for (let at: number | undefined = id; at !== undefined && !chain.includes(at); ) {
    chain.push(at)
    const parent: unknown = store.get('categories', at)?.source.data.parent
    at = Number.isInteger(parent) && (parent as number) > 0 ? (parent as number) : undefined
  }
  return chain
}
