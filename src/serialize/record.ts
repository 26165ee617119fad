import { TRASHED_SUFFIX } from '../content/model/post-state.ts'
import type { ContentRecord } from '../content/store.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import type { View } from './view.ts'
import { recordRestUrl } from './urls.ts'

/** `translations`: every language the record has a file in, the current one included (docs/compatibility.md §1). */
export function toTranslations(record: ContentRecord, view: View, restPath: string) {
  const translations: Record<string, { id: number; slug: string; rest_url: string }> = {}
  for (const lang of LANGUAGES) {
    if (!record.files.has(lang)) continue
    const slug = view.store.fieldsIn(record, lang)?.slug
    translations[lang] = {
      id: record.id,
      slug: typeof slug === 'string' ? slug : '',
      rest_url: recordRestUrl(view.site, restPath, lang),
    }
  }
  return translations
}

/** A path segment for a public URL: slugs are UTF-8 (docs/compatibility.md §10), URLs carry them percent-encoded. */
export function slugSegment(slug: unknown): string {
  return encodeURIComponent(typeof slug === 'string' ? slug : '')
}

/** The language a record's text is served in for this request (its own file, else its source). */
export function servedLang(record: ContentRecord, view: View): Lang {
  return view.store.langOf(record, view.lang) ?? record.source.lang
}

/** Text of a field, '' when absent. */
export function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value)
}

/** A trashed post's slug as WordPress shows it while it sits in the trash. */
export function shownSlug(fields: Record<string, unknown>): string {
  const slug = text(fields.slug)
  return fields.status === 'trash' ? `${slug}${TRASHED_SUFFIX}` : slug
}
