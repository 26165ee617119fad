import type { App } from '../app.ts'
import { KINDS, type Kind } from '../content/model/kinds.ts'
import type { Store } from '../content/store.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import { NAMESPACE } from '../namespace.ts'
import { eventListIds, recordUrls } from './affected-pages.ts'
import { feedJobs } from './feed-files.ts'
import type { Layout } from './file-layout.ts'
import type { Site } from '../context/site.ts'
import { trimEndOf } from '../text.ts'

export interface UrlOptions {
  liveUrl: string
  apiRoot: string
  defaultLang: Lang
  perPage: number
  /** Event list pages are also written at this size, for bulk consumers (undefined: they are not). */
  bulkPerPage?: number | undefined
  /** The languages written (default: all). */
  languages?: readonly Lang[] | undefined
  /** iCalendar feeds of the calendar and of each category, tag, venue and organizer (default: written). */
  feeds?: boolean | undefined
}

/** The size of a wide page (`per_page=50`), for clients that page through everything. */
const WIDE_PAGE = 50

/** Events are listed in runs of this many, each run's pages next to its single events (see `publicJobs`). */
const RUN = 50

/** One public GET of a build, with the record whose answer it is, if any. */
export interface Job {
  url: string
  /** `kind/id` of the record a single-record URL answers. */
  record?: string
  /** A by-slug URL answers exactly what this by-id URL (the job just before) answers. */
  sameAs?: string
  /** A by-slug URL's language and slug, for the index of slugs. */
  slug?: { lang: Lang; slug: string }
}

/** The namespace root of a language, as the live server answers it (non-default languages through their prefix). */
export function namespaceRoot(options: UrlOptions, lang: Lang): string {
  const prefix = lang === options.defaultLang ? '' : `/${lang}`
  return `${options.liveUrl}${prefix}${options.apiRoot}/${NAMESPACE}`
}

/** The API index of a language (`…/wp-json/`), where every answer's `Link` header points. */
export function apiIndex(options: UrlOptions, lang: Lang): string {
  const prefix = lang === options.defaultLang ? '' : `/${lang}`
  return `${options.liveUrl}${prefix}${options.apiRoot}/`
}

/**
 * Every public GET of the API, per language: the API index, the namespace root, /doc, every record by id and
 * by slug, and
 * every page of every list in its default query (events also at the bulk page size, if any), at `now`, in
 * the languages of `options`. Events come in list order, in runs of a bulk page (50 without one), each
 * run's pages next to the single events it holds, so an
 * event's JSON is built once and reused while it is still in the memo (in any order, a build
 * larger than the memo would build it again for every list it is in).
 */
export async function publicJobs(app: App, store: Store, options: UrlOptions, now: number): Promise<Job[]> {
  const jobs: Job[] = []
  for (const lang of options.languages ?? LANGUAGES) {
    const root = namespaceRoot(options, lang)
    jobs.push({ url: apiIndex(options, lang) }, { url: root }, { url: `${root}/doc` })
    const records = (kind: Kind, ids: Iterable<number>) => {
      for (const id of ids) for (const url of recordUrls(store, kind, id, options, [lang])) jobs.push(url)
    }
    const listed = eventListIds(app, lang, now)
    const pages = (size: number) => Math.max(1, Math.ceil(listed.length / size))
    const page = (size: number, n: number) => ({ url: listUrl(`${root}/events`, size, options.perPage, n) })
    const run = options.bulkPerPage ?? RUN
    let next = 1
    for (let bulk = 1; bulk <= pages(run); bulk++) {
      if (options.bulkPerPage) jobs.push(page(options.bulkPerPage, bulk))
      const end = bulk * run
      for (; next <= pages(options.perPage) && (next - 1) * options.perPage < end; next++)
        jobs.push(page(options.perPage, next))
      records('events', listed.slice(end - run, end))
    }
    const inList = new Set(listed)
    // Every event by id: the series (which lists do not show), and occurrences and events outside the default list.
    const everyEvent = new Set([...store.list('events'), ...store.events()].map((record) => record.id))
    records(
      'events',
      [...everyEvent].filter((id) => !inList.has(id)),
    )
    for (const kind of KINDS.filter((kind) => kind !== 'events')) {
      for (const url of await listPages(app, `${root}/${kind}`, options.perPage)) jobs.push({ url })
      records(
        kind,
        store.list(kind).map((record) => record.id),
      )
    }
    if (options.feeds !== false) jobs.push(...feedJobs(store, options, lang))
  }
  return jobs
}

/** Every page of a list at the default size, found by asking for the first: a list says how many pages it has. */
async function listPages(app: App, list: string, perPage: number): Promise<string[]> {
  const first = await app.fetch(new Request(list))
  const pages = Math.max(1, Number(first.headers.get('x-tec-totalpages') ?? 1))
  await first.arrayBuffer()
  return Array.from({ length: pages }, (_, i) => listUrl(list, perPage, perPage, i + 1))
}

/** A list page's URL the way its own links name it: `per_page` only when not the default, `page` after 1. */
export function listUrl(list: string, size: number, defaultSize: number, page: number): string {
  const query = [size === defaultSize ? '' : `per_page=${size}`, page > 1 ? `page=${page}` : '']
    .filter(Boolean)
    .join('&')
  return query ? `${list}?${query}` : list
}

/**
 * How many events a wide page holds: 50, or `max_per_page` when smaller (the app caps a page at it);
 * none when that is no wider than the default page.
 */
export function widePageSize(perPage: number, maxPerPage: number): number | undefined {
  const size = Math.min(WIDE_PAGE, maxPerPage)
  return size > perPage ? size : undefined
}

/** What a build's URLs follow: where its files go (`Layout`) and which URLs it asks (`UrlOptions`). */
export function buildUrls(options: {
  site: Site
  publicUrl: string
  perPage: number
  maxPerPage: number
  widePages?: boolean | undefined
  languages?: readonly Lang[] | undefined
  feeds?: boolean | undefined
}): { layout: Layout; urlOptions: UrlOptions } {
  const { site, perPage, languages } = options
  const common = { liveUrl: site.url, apiRoot: site.apiRoot, defaultLang: site.defaultLang }
  return {
    layout: { ...common, publicUrl: trimEndOf(options.publicUrl, '/'), defaultPerPage: perPage, languages },
    urlOptions: {
      ...common,
      perPage,
      bulkPerPage: options.widePages ? widePageSize(perPage, options.maxPerPage) : undefined,
      languages: languages ?? LANGUAGES,
      feeds: options.feeds !== false,
    },
  }
}
