import { trimOf } from '../../text.ts'
import { isLang, type Lang } from '../../languages.ts'
import { KINDS, type Kind } from '../model/kinds.ts'

/** Where a content file sits: its kind, the record's stem and the file's language. */
export interface FileAddress {
  kind: Kind
  stem: string
  lang: Lang
}

/** A stem is a stable, ASCII, file-system-safe key (docs/architecture.md §2). */
export const STEM = /^[a-z0-9][a-z0-9_-]{0,127}$/i

/**
 * Whether a file name in a kind folder is a record's file: Markdown, not hidden, and not the folder's own
 * `README.md`, which a content repository may keep to explain the folder to its editors. A hidden file (a
 * name starting with a dot: an editor's lock file `.#x.en.md`, macOS's `._x.en.md`, the temporary files of
 * atomic saves) is no record: the watcher never reports one, so the store reads none at all, at start or after.
 */
export function isRecordFileName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.') && !/^readme\.md$/i.test(name)
}

const SEPARATOR = /[\\/]/

/**
 * Reads `events/<stem>.<lang>.md` (or `<stem>.md` in the default language).
 * Returns a reason string when the path is not a record file, so callers can report it.
 */
export function parseContentPath(relative: string, defaultLang: Lang): FileAddress | string {
  // Cut at the one separator there must be (no array: every file of a tree is named here at each load).
  const cut = relative.search(SEPARATOR)
  if (cut === -1 || SEPARATOR.test(relative.slice(cut + 1)))
    return 'records live directly in a kind folder (events/, venues/, …)'
  const folder = relative.slice(0, cut)
  const name = relative.slice(cut + 1)
  if (!(KINDS as readonly string[]).includes(folder)) return `unknown folder "${folder}"`
  const m = /^(.+?)(?:\.([^.]+))?\.md$/.exec(name)
  if (!m) return 'not a Markdown file'
  if (name.startsWith('.')) return 'a hidden file (its name starts with a dot) is not a record'
  if (!isRecordFileName(name)) return 'a README.md explains its folder; it is not a record'
  const stem = m[1]!
  const lang = m[2] ?? defaultLang
  if (!isLang(lang)) return `unknown language "${lang}" (expected en, zh-hans, ms or ta)`
  if (!STEM.test(stem)) return `file name "${stem}" must be ASCII letters, digits, - and _`
  return { kind: folder as Kind, stem, lang }
}

/** The relative path of a record file. */
export function contentPath(kind: Kind, stem: string, lang: Lang): string {
  return `${kind}/${stem}.${lang}.md`
}

/** A free file stem for a new record: its slug when that is ASCII, else its kind and id; `-<id>` when taken. */
export function freeStem(kind: Kind, slug: string, id: number, taken: (stem: string) => boolean): string {
  const dashed = slug.normalize('NFKD').replace(/[^A-Za-z0-9_-]+/g, '-')
  const ascii = trimOf(dashed, '-').toLowerCase().slice(0, 80)
  const base = ascii && STEM.test(ascii) ? ascii : `${kind.replace(/ies$/, 'y').replace(/s$/, '')}-${id}`
  return taken(base) ? `${base}-${id}` : base
}
