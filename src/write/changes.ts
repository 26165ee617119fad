import type { Kind } from '../content/model/kinds.ts'
import { TRANSLATABLE } from '../content/model/kinds.ts'
import type { ContentRecord, FileWrite } from '../content/store.ts'
import type { Lang } from '../languages.ts'

/**
 * Field changes of one write: a value sets the field; `null` clears it (docs/compatibility.md §4).
 * `description` is the body.
 */
export type Changes = Record<string, unknown>

/**
 * The files a write touches. Fields not named keep their values (docs/compatibility.md §4). Translatable fields sent in
 * a language other than the source's go to that language's file, created when missing; the rest
 * go to the source (docs/architecture.md §2). A new record's source is in the request's language.
 */
export function planFiles(
  kind: Kind,
  record: ContentRecord | undefined,
  lang: Lang,
  changes: Changes,
): Partial<Record<Lang, FileWrite>> {
  const sourceLang = record?.source.lang ?? lang
  const source: FileWrite = { data: { ...(record?.source.data ?? {}) }, body: record?.source.body ?? '' }
  const files: Partial<Record<Lang, FileWrite>> = { [sourceLang]: source }
  let translation: FileWrite | undefined
  if (lang !== sourceLang) {
    const existing = record?.files.get(lang)
    translation = { data: { ...(existing?.data ?? {}) }, body: existing?.body ?? '' }
  }
  for (const [field, value] of Object.entries(changes)) {
    const target = translation && TRANSLATABLE[kind].includes(field) ? translation : source
    if (field === 'description') target.body = value === null ? '' : String(value)
    else if (value === null) delete target.data[field]
    else target.data[field] = value
  }
  if (translation) files[lang] = translation
  return files
}
