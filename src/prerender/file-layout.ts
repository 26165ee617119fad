import { KINDS } from '../content/model/kinds.ts'
import { isLang, type Lang } from '../languages.ts'
import { NAMESPACE } from '../namespace.ts'
import { trimEndOf } from '../text.ts'

/** Where the static files live, and where the live API they were rendered from lives. */
export interface Layout {
  /** Base URL the built files are served from, no trailing slash (e.g. https://cdn.example.org/calendar). */
  publicUrl: string
  /** Base URL of the app the build asks (`site_url`), no trailing slash. */
  liveUrl: string
  apiRoot: string
  defaultLang: Lang
  defaultPerPage: number
  /** The languages written; a link into another keeps its live address (default: all are written). */
  languages?: readonly Lang[]
}

const LISTS = new Set<string>(KINDS)

/**
 * The file a live API URL is written to, relative to the output folder: the path plus `.json`,
 * with the language as a path segment, and `page` and a non-default `per_page` as path segments
 * (static hosts ignore query strings). Other query parameters are those of the default query
 * (its window and status): `staticUrl` maps no link with a filter here.
 */
export function fileFor(layout: Layout, url: string): string {
  // Every URL a build meets starts with the live site's: cut it off rather than parse it (a build maps a few million
  // links, and makes no string just to compare them with).
  const local = within(url, layout.liveUrl) ? url.slice(layout.liveUrl.length) : pathAndQuery(new URL(url))
  const mark = local.indexOf('?')
  const query = mark < 0 ? NO_QUERY : new URLSearchParams(local.slice(mark + 1))
  let path = decodedPath(mark < 0 ? local : local.slice(0, mark))
  let lang = query.get('ml_language')
  // Only a path whose first segment could be a language is matched against them (not `/wp-json/…`, nearly every one).
  const prefix = path.charCodeAt(3) === SLASH || path.startsWith('/zh-hans/') ? LANGUAGE_PREFIX.exec(path) : null
  if (prefix && within(prefix[2]!, layout.apiRoot)) {
    lang ??= prefix[1]!
    path = prefix[2]!
  }
  path = trimEndOf(path, '/')
  // A feed is written under its own name (`events.ics`): calendar apps and hosts know it by its extension.
  if (path.endsWith('.ics')) return relative(languageSegment(layout, lang), path, '')
  const namespaceEnd = layout.apiRoot.length + 1 + NAMESPACE.length
  const tail = path.slice(path.charCodeAt(namespaceEnd) === SLASH ? namespaceEnd + 1 : namespaceEnd)
  if (LISTS.has(tail)) {
    const perPage = Number(query.get('per_page') ?? layout.defaultPerPage)
    const page = Number(query.get('page') ?? 1)
    if (perPage !== layout.defaultPerPage) path += `/per_page/${perPage}`
    if (page > 1) path += `/page/${page}`
  }
  return relative(languageSegment(layout, lang), path, '.json')
}

const SLASH = 47
const LANGUAGE_PREFIX = /^\/(zh-hans|en|ms|ta)(\/.*)$/

/** Whether `text` begins with `base` and a `/`. */
function within(text: string, base: string): boolean {
  return text.startsWith(base) && text.charCodeAt(base.length) === SLASH
}

/** `segment`, `path` and `ending` joined, without a leading `/`. */
function relative(segment: string, path: string, ending: string): string {
  if (segment !== '') return `${segment.slice(1)}${path}${ending}`
  return path.charCodeAt(0) === SLASH ? `${path.slice(1)}${ending}` : `${path}${ending}`
}

/** The query of a URL without one. */
const NO_QUERY = new URLSearchParams()

/** A file path whose every segment `encodeURIComponent` leaves as it is. */
const URL_SAFE = /^[\w.\-/]*$/

/** A `.` or `..` segment of a path. */
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/

/** `/ms` for a language other than the default, '' for the default one. */
function languageSegment(layout: Layout, lang: string | null): string {
  return lang && isLang(lang) && lang !== layout.defaultLang ? `/${lang}` : ''
}

/**
 * Whether a slug can have a by-slug file of its own. One holding `/` or `\\`, or that is `.` or `..`, cannot: its
 * file name would be escaped (see `decodedPath`), the name another slug's text may be (`x/y` and `x%2Fy` wrote one
 * file, the second over the first). Such a record is found through slugs.json.
 */
export function slugHasFile(slug: string): boolean {
  return !/[/\\]/.test(slug) && slug !== '.' && slug !== '..'
}

/**
 * A URL path decoded segment by segment, each staying one file name: a `/` or `\\` decoded out of a segment
 * (a slug such as `../../venues`, which any text may be) is kept encoded, and so is a segment that decodes to
 * `.` or `..`, so no URL's file lands beside another's or outside the output folder.
 */
export function decodedPath(path: string): string {
  // Most paths have nothing to decode and no dot segment: they are their own file path (a build meets millions).
  if (!path.includes('%') && !path.includes('\\') && !DOT_SEGMENT.test(path)) return path
  return path
    .split('/')
    .map((part) => {
      const name = decodeURIComponent(part)
      if (name === '.' || name === '..') return name.replaceAll('.', '%2E')
      return name.replace(/[/\\]/g, (c) => (c === '/' ? '%2F' : '%5C'))
    })
    .join('/')
}

function pathAndQuery(url: URL): string {
  return url.pathname + url.search
}

/**
 * Where a link of a live answer points in the static files: an API URL at its file, a media URL at
 * the copy under `media/`, anything else (the site's pages, other hosts, queries with a filter, such
 * as a term's `wp:post_type` link, and languages the build does not write, which have no file) where it was.
 */
export function staticUrl(layout: Layout, liveUrl: string): string {
  if (!liveUrl.startsWith(layout.liveUrl)) return liveUrl
  const rest = liveUrl.slice(layout.liveUrl.length)
  if (rest.startsWith('/media/')) return `${layout.publicUrl}${rest}`
  if (!(apiPath(layout).test(rest) || apiIndexPath(layout).test(rest)) || !defaultQuery(rest)) return liveUrl
  const file = fileFor(layout, liveUrl)
  if (layout.languages && !layout.languages.includes(languageOf(layout, file))) return liveUrl
  return `${layout.publicUrl}/${URL_SAFE.test(file) ? file : file.split('/').map(encodeURIComponent).join('/')}`
}

/** The language of a file: its first segment when that is a language, else the default language. */
function languageOf(layout: Layout, file: string): Lang {
  const first = file.slice(0, file.indexOf('/'))
  return isLang(first) ? first : layout.defaultLang
}

// What the links of a default query carry: its page, size, language and default window.
const DEFAULT_QUERY = new Set(['page', 'per_page', 'ml_language', 'start_date', 'end_date', 'status'])

function defaultQuery(pathAndQuery: string): boolean {
  const mark = pathAndQuery.indexOf('?')
  return (
    mark < 0 || [...new URLSearchParams(pathAndQuery.slice(mark + 1)).keys()].every((key) => DEFAULT_QUERY.has(key))
  )
}

const apiPaths = new WeakMap<Layout, RegExp>()

/** A path into the API namespace, optionally behind a language prefix. */
function apiPath(layout: Layout): RegExp {
  let pattern = apiPaths.get(layout)
  if (!pattern)
    apiPaths.set(
      layout,
      (pattern = new RegExp(`^(/(zh-hans|en|ms|ta))?${escapeRegExp(`${layout.apiRoot}/${NAMESPACE}`)}(/|\\?|$)`)),
    )
  return pattern
}

const apiIndexPaths = new WeakMap<Layout, RegExp>()

/** The API index (`/wp-json/`), optionally behind a language prefix. */
function apiIndexPath(layout: Layout): RegExp {
  let pattern = apiIndexPaths.get(layout)
  if (!pattern)
    apiIndexPaths.set(layout, (pattern = new RegExp(`^(/(zh-hans|en|ms|ta))?${escapeRegExp(layout.apiRoot)}/?(\\?|$)`)))
  return pattern
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
