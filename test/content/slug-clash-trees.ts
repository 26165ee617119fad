import { KINDS } from '../../src/content/model/kinds.ts'
import type { Store } from '../../src/content/store.ts'
import { LANGUAGES } from '../../src/languages.ts'
import { eventFile } from './trees.ts'

/** An event whose slug plain-meetup (id 8, events/plain-meetup.en.md) already holds. */
export const dupSlug = (id: number, title: string) => eventFile(id, title).replace(/^slug: .*$/m, 'slug: plain-meetup')

/** A Malay translation naming the slug summer-concert's Malay file (events/summer-concert.ms.md) holds. */
export const MS_TWIN = '---\ntitle: Kembar\nslug: konsert-musim-panas\n---\nKembar.\n'

/** What the store serves: every record, its languages and slugs (and who holds each), and the problems. */
export function served(store: Store) {
  const records = KINDS.flatMap((kind) =>
    store.list(kind).map((record) => {
      const langs = LANGUAGES.map((lang) => {
        const slug = store.fieldsIn(record, lang)?.slug
        return `${lang}=${String(slug)}${typeof slug === 'string' && store.bySlug(kind, lang, slug) === record ? '' : ' (not found by slug)'}`
      })
      return `${kind}/${record.id} ${[...record.files.keys()].sort().join(',')} ${langs.join(' ')}`
    }),
  )
  const problems = store.problems().map((p) => `${p.path}: ${p.severity ?? 'error'}: ${p.message}`)
  return { records, problems: problems.sort() }
}

/** Files the store serves although it lists them as errors: an error means the file is left out. */
export function servedWithErrors(store: Store): string[] {
  const errors = new Set(
    store
      .problems()
      .filter((p) => (p.severity ?? 'error') === 'error')
      .map((p) => p.path),
  )
  return KINDS.flatMap((kind) =>
    store.list(kind).flatMap((record) => [...record.files.values()].map((f) => f.path)),
  ).filter((path) => errors.has(path))
}
