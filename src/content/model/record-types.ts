import type { Lang } from '../../languages.ts'
import type { Kind } from './kinds.ts'

/** One file of a record, as read from disk. */
export interface FileEntry {
  /** Path relative to the content folder, with forward slashes. */
  path: string
  lang: Lang
  data: Record<string, unknown>
  body: string
  /**
   * For a file without a publication date (`date`), the instant that dates it: when the file was
   * added in git, else its mtime; 0 for a file that has a date.
   */
  undatedMs: number
  /** Where `undatedMs` comes from: `git` is the same on every clone, `mtime` is not. */
  undatedBy?: 'git' | 'mtime'
}

/** A record: its source file (the one with `id`) and every translation, the source included. */
export interface ContentRecord {
  kind: Kind
  id: number
  stem: string
  source: FileEntry
  files: ReadonlyMap<Lang, FileEntry>
  /** Set on an occurrence of a series: the series record, and the occurrence's original start (wall clock). */
  series?: OccurrenceOf
}

/** What makes a record an occurrence: its series and the start the rule gave it (docs/recurrence.md). */
export interface OccurrenceOf {
  parent: ContentRecord
  start: string
}

/** Whether a record is a series: an event file with a `recurrence` (its occurrences are what lists show). */
export const isSeries = (record: ContentRecord): boolean =>
  record.kind === 'events' && record.series === undefined && record.source.data.recurrence !== undefined

/** A record's fields in one language; `description` is the Markdown body. */
export type RecordFields = Record<string, unknown> & { description: string }

/** One file to write: its front matter and its Markdown body. */
export interface FileWrite {
  data: Record<string, unknown>
  body: string
}

/** The key of a record in the store's maps: `kind/stem`. */
export const keyOf = (record: { kind: Kind; stem: string }): string => `${record.kind}/${record.stem}`

/** The kind and stem a key names. */
export const splitKey = (key: string): [Kind, string] => key.split('/') as [Kind, string]
