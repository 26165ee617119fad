import type { ContentRecord } from '../content/store.ts'
import type { TermKind } from '../content/model/kinds.ts'
import type { View } from './view.ts'
import { servedLang, slugSegment, text, toTranslations } from './record.ts'
import { link, publicUrl, recordRestUrl, restRoot } from './urls.ts'

const TAXONOMY: Record<TermKind, string> = { categories: 'tribe_events_cat', tags: 'post_tag' }

interface TermBasics {
  name: string
  slug: string
  description: string
  parent: number
  count: number
  urls: Record<string, string>
}

function basics(record: ContentRecord, view: View): TermBasics {
  const fields = view.store.fieldsIn(record, view.lang)!
  const lang = servedLang(record, view)
  const kind = record.kind as TermKind
  const parent = kind === 'categories' && Number.isInteger(fields.parent) ? (fields.parent as number) : 0
  const urls: Record<string, string> = {
    self: recordRestUrl(view.site, `${kind}/${record.id}`, lang),
    collection: recordRestUrl(view.site, kind, lang),
  }
  if (parent) urls.up = recordRestUrl(view.site, `${kind}/${parent}`, lang)
  return {
    name: text(fields.name),
    slug: text(fields.slug),
    description: fields.description,
    parent,
    count: view.indexes.termCount(record.id),
    urls,
  }
}

/** A term inside an event's `categories`/`tags`: WordPress's term object, renamed. */
export function toEmbeddedTerm(record: ContentRecord, view: View) {
  const term = basics(record, view)
  return {
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: record.id,
    taxonomy: TAXONOMY[record.kind as TermKind],
    description: term.description,
    parent: term.parent,
    count: term.count,
    filter: 'raw',
    id: record.id,
    urls: term.urls,
    lang: servedLang(record, view),
  }
}

/** A term from the term endpoints; single reads also carry `_links`. */
export function toTermResponse(record: ContentRecord, view: View, links?: { allow: string[] }) {
  const term = basics(record, view)
  const kind = record.kind as TermKind
  const response: Record<string, unknown> = {
    id: record.id,
    count: term.count,
    description: term.description,
    name: term.name,
    slug: term.slug,
    taxonomy: TAXONOMY[kind],
  }
  if (kind === 'categories') response.parent = term.parent
  response.meta = []
  response.url = termUrl(record, view)
  response.urls = term.urls
  if (links) response._links = termLinks(record, view, term, links.allow)
  response.lang = servedLang(record, view)
  response.translations = toTranslations(record, view, `${kind}/${record.id}`)
  return response
}

/** The public archive page of a term; child categories nest under their parents' slugs. */
function termUrl(record: ContentRecord, view: View): string {
  const lang = servedLang(record, view)
  if (record.kind === 'tags')
    return publicUrl(view.site, lang, `/events/tag/${slugSegment(view.store.fieldsIn(record, view.lang)?.slug)}/`)
  const segments: string[] = []
  const seen = new Set<number>()
  for (let current: ContentRecord | undefined = record; current && !seen.has(current.id); ) {
    seen.add(current.id)
    const fields = view.store.fieldsIn(current, view.lang)
    segments.unshift(slugSegment(fields?.slug))
    current =
      Number.isInteger(fields?.parent) && fields?.parent
        ? view.store.get('categories', fields.parent as number)
        : undefined
  }
  return publicUrl(view.site, lang, `/events/category/${segments.join('/')}/`)
}

/** WordPress's `_links` of a single term, pointed at Almanac's own routes. */
function termLinks(record: ContentRecord, view: View, term: TermBasics, allow: string[]) {
  const links: Record<string, unknown[]> = {
    self: [{ href: term.urls.self, targetHints: { allow } }],
    collection: [{ href: term.urls.collection }],
    about: [{ href: link(view.site, `${restRoot(view)}doc`) }],
  }
  if (term.urls.up) links.up = [{ embeddable: true, href: term.urls.up }]
  links['wp:post_type'] = [{ href: link(view.site, `${restRoot(view)}events?${record.kind}=${record.id}`) }]
  links.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }]
  return links
}
