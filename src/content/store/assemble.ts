import type { Lang } from '../../languages.ts'
import { ID_HINT, secondFileMessage, SLUG_HINT } from '../checks/clashes.ts'
import { checkEvent } from '../checks/event-checks.ts'
import { idSpaceOf, type Kind } from '../model/kinds.ts'
import { type ContentRecord, type FileEntry, keyOf } from '../model/record-types.ts'
import { checkSource, checkTranslation } from '../schema/records.ts'
import { serveOccurrences } from './series.ts'
import type { StoreState } from './state.ts'
import { translatedFields, unknownKeyWarnings } from '../checks/unknown-keys.ts'

// Making a record of its files: which file is the source, which translations pass their checks,
// and who keeps an id or a slug two records claim (clashes.ts). Every problem is reported at once.

/**
 * The file that holds a record's id: the default language's, else any that has one; of two, the first in path order
 * (`x.en.md` before `x.md`), however the files arrived, so that a running server and a fresh one agree.
 */
export function sourceOf(state: StoreState, files: FileEntry[]): FileEntry | undefined {
  let source: FileEntry | undefined
  for (const file of files) {
    if (file.data.id === undefined) continue
    const own = file.lang === state.rules.defaultLanguage
    const held = source?.lang === state.rules.defaultLanguage
    if (!source || (own && !held) || (own === held && file.path < source.path)) source = file
  }
  return source
}

/** What is wrong with a record's source, checked before it replaces the last good version. */
export function sourceProblems(state: StoreState, kind: Kind, files: FileEntry[]) {
  const source = sourceOf(state, files)
  if (!source) return { issues: files.length ? ['no file of this record has an id, so it has no source file'] : [] }
  return { source, issues: checkSource(kind, source.data).concat(checkEvent(kind, source.data, state.rules.timezone)) }
}

/** A record of its files, or undefined when it cannot be served (its problems are reported). */
export function assemble(state: StoreState, kind: Kind, stem: string, files: FileEntry[]): ContentRecord | undefined {
  const { problems, texts } = state
  const { source, issues } = sourceProblems(state, kind, files)
  if (!source) return reportSourceless(state, kind, files, issues)
  const id = source.data.id as number
  const key = `${kind}/${stem}`
  const holder = state.catalogue.holderOf(idSpaceOf(kind), id)
  const held = holder && holder !== key ? state.catalogue.record(holder) : undefined
  // Two records with one id: the one whose source file comes first in path order keeps it, the
  // other is blamed, whichever arrived first (see clashes.ts), so the server and check agree.
  const loses = held !== undefined && held.source.path < source.path
  const byLang = translationsOf(state, kind, files, source)
  if (issues.length > 0 || loses) {
    const clash = `id ${id} is already used by ${holder}${ID_HINT}`
    problems.report(source.path, loses ? issues.concat(clash) : issues, texts.get(source.path))
    if (loses) state.clashes.wait(holder!, key)
    return undefined
  }
  leaveOutSlugLosers(state, kind, key, source, byLang)
  if (!byLang.has(source.lang)) return undefined
  if (held) evict(state, held, key)
  return { kind, id, stem, source, files: byLang }
}

function reportSourceless(state: StoreState, kind: Kind, files: FileEntry[], issues: string[]): undefined {
  for (const f of files) state.problems.report(f.path, issues, state.texts.get(f.path))
  // The file meant as the source (it only lacks its id) is checked as one all the same.
  const meant = files.find((f) => f.lang === state.rules.defaultLanguage)
  if (meant) {
    const asSource = checkSource(kind, { id: 1, ...meant.data }).concat(
      checkEvent(kind, meant.data, state.rules.timezone),
    )
    state.problems.report(meant.path, asSource, state.texts.get(meant.path))
  }
  return undefined
}

/** The record's files by language: the source, and each translation that passes its checks. */
function translationsOf(state: StoreState, kind: Kind, files: FileEntry[], source: FileEntry) {
  const byLang = new Map<Lang, FileEntry>([[source.lang, source]])
  // In path order, as ids and slugs go: of two files of one language (`x.md` is the default language's, as `x.en.md`
  // is), the source, else the first, is read, and the other is told of, however the files arrived.
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (file === source) continue
    const same = byLang.get(file.lang)
    if (same) state.problems.report(file.path, [secondFileMessage(same.path, file.lang)])
    else if (file.data.id !== undefined) {
      state.problems.report(file.path, [`a record has one source file; ${source.path} already holds the id`])
    } else {
      const issues = checkTranslation(kind, translatedFields(kind, file.data))
      if (issues.length > 0) state.problems.report(file.path, issues, state.texts.get(file.path))
      else byLang.set(file.lang, file)
    }
  }
  return byLang
}

/** The slug a record's file gives it in that file's language: its own, else the source's. */
const slugOf = (file: FileEntry, source: FileEntry): unknown => file.data.slug ?? source.data.slug

/**
 * The files of a record that give it a slug another record holds from a file earlier in path
 * order (or from its source, in a language it falls back to): each is reported and left out.
 */
function leaveOutSlugLosers(
  state: StoreState,
  kind: Kind,
  key: string,
  source: FileEntry,
  byLang: Map<Lang, FileEntry>,
) {
  for (const [lang, file] of [...byLang]) {
    const slug = slugOf(file, source)
    const holder = typeof slug === 'string' && slug !== '' ? state.catalogue.bySlug(kind, lang, slug) : undefined
    const held = holder && (holder.files.get(lang)?.path ?? holder.source.path)
    if (!holder || !held || keyOf(holder) === key || held > file.path) continue
    const message = `slug "${String(slug)}" (${lang}) is already used by ${held}${SLUG_HINT}`
    state.problems.report(file.path, [message], state.texts.get(file.path))
    state.clashes.wait(keyOf(holder), key)
    byLang.delete(lang)
  }
}

/** Keys a file holds that its role does not use are warnings: the record still loads. */
export function warnUnknownKeys(state: StoreState, kind: Kind, files: FileEntry[]): void {
  const source = sourceOf(state, files)
  for (const file of files) {
    const role = source && file !== source && file.data.id === undefined ? 'translation' : 'source'
    state.problems.warn(file.path, unknownKeyWarnings(kind, file.data, role), state.texts.get(file.path))
  }
}

/** Takes an id from a record whose source comes later in path order than the winner's. */
function evict(state: StoreState, loser: ContentRecord, winner: string): void {
  state.catalogue.serve(keyOf(loser), undefined, state.clashes)
  const message = `id ${loser.id} is already used by ${winner}${ID_HINT}`
  state.problems.report(loser.source.path, [message], state.texts.get(loser.source.path))
  state.clashes.wait(winner, keyOf(loser))
  state.changes.tell(loser, undefined)
  for (const [was, is] of serveOccurrences(state, keyOf(loser), undefined)) state.changes.tell(was, is)
  state.clashes.release(keyOf(loser))
}
