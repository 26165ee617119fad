import { giveId } from './give-id.ts'
import { datedByGit, dateUndated, redateLater, touchCommitted } from './dating.ts'
import { readEntry } from './entries.ts'
import { sourceProblems, warnUnknownKeys } from './assemble.ts'
import { LINKED_KIND_FOLDER, reportMedia } from './load.ts'
import { KINDS } from '../model/kinds.ts'
import { isRecordFileName, parseContentPath } from '../files/paths.ts'
import { type FileEntry, splitKey } from '../model/record-types.ts'
import { settle } from './settle.ts'
import type { StoreState } from './state.ts'
import type { WriteQueue } from './write-queue.ts'

/**
 * Re-reads files changed on disk (relative paths), rebuilding only their records. The caller holds the write queue.
 * True when a path said something the store did not know: a record file that differs from what it read or
 * wrote, a refused one, media, or anything else (a folder); false when every one was as the store had it,
 * as when the watcher hears the store's own writes.
 */
export async function reloadNow(state: StoreState, paths: string[]): Promise<boolean> {
  const media = paths.some((path) => path.startsWith('media/'))
  if (media) await reloadMedia(state)
  const { groups, fresh, news } = readChanges(state, paths)
  const { unknown, moved } = await dateUndated(state, fresh, true)
  redateLater(state, unknown)
  // The records this reload settles are made anew with git's dates: the others whose dates moved, after (even when a
  // settle fails: what git said was taken from it).
  const settled = new Set<string>()
  try {
    for (const [key, changes] of groups)
      if (changes.size > 0 && (await settleChanges(state, key, changes))) settled.add(key)
  } finally {
    await touchCommitted(state, moved, settled)
  }
  return media || news
}

/**
 * Re-reads whatever changed on disk since it was read (added, removed, modified files, media). The
 * comparison (one lstat a file) holds no write: `queue` is taken only to re-read what it found, and
 * re-reading a file a write changed meanwhile finds the text the store wrote, so changes nothing.
 */
export async function reconcileNow(state: StoreState, queue: WriteQueue): Promise<void> {
  const changed = await state.driver.changed(state.texts, state.media.stamps())
  changed.push(...toldButGone(state))
  if (changed.length > 0) await queue(() => reloadNow(state, changed))
}

/**
 * Badly named files told as problems and no longer there. The comparison goes by the texts the store holds, and it
 * holds none of such a file, so one heard through a content link pointed at a wider folder stayed told after the
 * link was put back, where a restart would not tell it. Re-read, each is forgotten.
 */
function toldButGone(state: StoreState): string[] {
  const badlyNamed = (path: string) =>
    path.includes('/') &&
    !path.startsWith('media/') &&
    typeof parseContentPath(path, state.rules.defaultLanguage) === 'string'
  const gone: string[] = []
  for (const path of state.problems.paths()) if (badlyNamed(path) && state.driver.mtimeOf(path) === 0) gone.push(path)
  return gone
}

/** Images are few: the library is read again, and the version moves so events show the new file. */
async function reloadMedia(state: StoreState): Promise<void> {
  for (const file of state.media.refused()) state.problems.clear(`media/${file.file}`)
  state.media = await state.driver.media()
  reportMedia(state, state.media)
  state.changes.bump()
}

/** Reads each path again: per record key, the files that changed (null: gone), and the entries read fresh. */
function readChanges(state: StoreState, paths: string[]) {
  const { catalogue, problems, texts } = state
  const groups = new Map<string, Map<string, FileEntry | null>>()
  const fresh: FileEntry[] = []
  const linked = linkedKindFolders(state)
  let news = false
  for (const path of new Set(paths)) {
    const address = parseContentPath(path, state.rules.defaultLanguage)
    if (typeof address === 'string') {
      // A file the tree cannot take by its name is told while it is there, and forgotten once it is gone.
      if (isRecordFileName(path.slice(path.lastIndexOf('/') + 1)))
        if (state.driver.mtimeOf(path) === 0) problems.clear(path)
        else problems.report(path, [address])
      if ((KINDS as readonly string[]).includes(path)) linked(path)
      news ||= !isHidden(path)
      continue
    }
    const key = `${address.kind}/${address.stem}`
    const group = groups.get(key) ?? new Map<string, FileEntry | null>()
    groups.set(key, group)
    // A file of a kind folder swapped for a link is gone, as at a start: one problem for the folder, none a file. The
    // driver refuses it all the same, and so forgets its stamp: once the folder is back, the file is read anew.
    const answer = state.driver.read(path)
    const read = linked(address.kind) ? null : answer
    if (read === null || 'refused' in read) {
      news ||= read !== null || texts.has(path) || catalogue.entry(path) !== undefined
      problems.clear(path)
      texts.delete(path)
      if (read) problems.report(path, [read.refused], undefined, 1)
      if (catalogue.entry(path)) group.set(path, null)
    } else if (texts.get(path) !== read.text || (!catalogue.entry(path) && !problems.has(path))) {
      problems.clear(path)
      const entry = readEntry(state, path, read.text, address.lang, read.mtimeMs)
      if (entry) group.set(path, entry)
      if (entry) fresh.push(entry)
      news = true
    } else {
      // The same text with a new mtime (`touch`, a save that changed nothing): a source dated by its mtime takes the
      // new one, as a restart would read it. Only such a file shows the date: a translation's or a term's touch
      // settles nothing (settling a category again made every list of its events anew, ~3 s of CPU at 10k events).
      const entry = catalogue.entry(path)
      if (entry?.undatedBy === 'mtime' && entry.undatedMs !== read.mtimeMs && datedByGit(state, entry)) {
        group.set(path, { ...entry, undatedMs: read.mtimeMs })
        news = true
      }
    }
  }
  return { groups, fresh, news }
}

/**
 * Settles a record with its changed files; a source that broke keeps its last good version served, until it
 * is fixed. Whether it settled.
 */
async function settleChanges(state: StoreState, key: string, changes: Map<string, FileEntry | null>): Promise<boolean> {
  const [kind, stem] = splitKey(key)
  const current = new Map(state.catalogue.filesOf(key).map((file) => [file.path, file]))
  for (const [path, entry] of changes) {
    if (entry) current.set(path, entry)
    else current.delete(path)
  }
  const files = await giveId(state, kind, [...current.values()], true)
  const { source, issues } = sourceProblems(state, kind, files)
  const served = state.catalogue.record(key)
  // A source deleted does not keep its last good version.
  const sourceGone = changes.get(served?.source.path ?? '') === null
  if (issues.length > 0 && served && !sourceGone) {
    for (const file of source ? [source] : files) state.problems.report(file.path, issues, state.texts.get(file.path))
    warnUnknownKeys(state, kind, files)
    return false
  }
  settle(state, kind, stem, files)
  return true
}

/**
 * Whether a kind folder is a link, asked once a batch; the folder's problem is told (or cleared, once it is a folder
 * again) as it is asked.
 */
function linkedKindFolders(state: StoreState): (kind: string) => boolean {
  const known = new Map<string, boolean>()
  return (kind) => {
    let linked = known.get(kind)
    if (linked !== undefined) return linked
    linked = state.driver.isLink(kind)
    known.set(kind, linked)
    if (linked) state.problems.report(kind, [LINKED_KIND_FOLDER], undefined, 1)
    else state.problems.clear(kind)
    return linked
  }
}

/** Dotfiles (the store's id file, temporaries of atomic saves) and editors' backups: what the disk watcher ignores. */
function isHidden(path: string): boolean {
  return path.split('/').some((part) => part.startsWith('.') || part.endsWith('~'))
}
