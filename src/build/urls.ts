import type { App } from '../app.ts'
import type { Store } from '../content/store.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import { NAMESPACE } from '../serialize/context.ts'

export interface UrlOptions {
  liveUrl: string
  apiRoot: string
  defaultLang: Lang
  perPage: number
  /** Event list pages are also written at this size, for bulk consumers. */
  bulkPerPage: number
}

/** The namespace root of a language, as the live server answers it (non-default languages through their prefix). */
export function namespaceRoot(options: UrlOptions, lang: Lang): string {
  const prefix = lang === options.defaultLang ? '' : `/${lang}`
  return `${options.liveUrl}${prefix}${options.apiRoot}/${NAMESPACE}`
}

/**
 * Every public GET of the API, per language: the root, /doc, every record by id and by slug,
 * and every page of every list in its default query (events also at the bulk page size).
 * List pages are found by asking for them: a list says how many pages it has.
 */
export async function publicUrls(app: App, store: Store, options: UrlOptions): Promise<string[]> {
  const urls: string[] = []
  for (const lang of LANGUAGES) {
    const root = namespaceRoot(options, lang)
    urls.push(root, `${root}/doc`)
    for (const kind of ['events', 'venues', 'organizers', 'categories', 'tags'] as const) {
      const sizes = kind === 'events' ? [options.perPage, options.bulkPerPage] : [options.perPage]
      for (const size of sizes) urls.push(...(await listPages(app, `${root}/${kind}`, size, options.perPage)))
      for (const record of store.list(kind)) {
        if (store.langOf(record, lang) === null) continue
        urls.push(`${root}/${kind}/${record.id}`)
        const slug = store.fieldsIn(record, lang)?.slug
        if (kind !== 'categories' && kind !== 'tags' && typeof slug === 'string' && slug) urls.push(`${root}/${kind}/by-slug/${encodeURIComponent(slug)}`)
      }
    }
  }
  return urls
}

async function listPages(app: App, list: string, perPage: number, defaultPerPage: number): Promise<string[]> {
  const query = perPage === defaultPerPage ? '' : `per_page=${perPage}`
  const first = await app.fetch(new Request(`${list}${query ? `?${query}` : ''}`))
  const pages = Number(first.headers.get('x-tec-totalpages') ?? 1)
  await first.arrayBuffer()
  return Array.from({ length: Math.max(1, pages) }, (_, i) => `${list}?${[query, i > 0 ? `page=${i + 1}` : ''].filter(Boolean).join('&')}`.replace(/\?$/, ''))
}
