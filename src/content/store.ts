import type { Lang } from '../languages.ts'
import { createCatalogue } from './store/catalogue.ts'
import { type ChangeListener, createChangeNotification } from './store/change-notification.ts'
import { createClashes } from './checks/clashes.ts'
import { commitNow, readingStale } from './store/commit.ts'
import { createDiskDriver } from './store/disk-driver.ts'
import type { ContentDriver } from './store/driver.ts'
import { createIdAllocation, highestInUse } from './store/id-allocation.ts'
import type { Kind } from './model/kinds.ts'
import { loadTree } from './store/load.ts'
import { type MediaLibrary, mediaLibrary } from './store/media.ts'
import { freeStem } from './files/paths.ts'
import { createProblemLog, type Problem } from './checks/problems.ts'
import type { ContentRecord, FileWrite, RecordFields } from './model/record-types.ts'
import { reconcileNow, reloadNow } from './store/reload.ts'
import { horizonAt, SERIES_LIMITS } from './model/recurrence.ts'
import { moveHorizon } from './store/series.ts'
import { settleAgain } from './store/settle.ts'
import { touchCommitted } from './store/dating.ts'
import type { StoreState } from './store/state.ts'
import { type Transaction, transactionNow } from './store/transaction.ts'
import { createWriteQueue } from './store/write-queue.ts'

export type { Problem } from './checks/problems.ts'
export type { ContentRecord, FileEntry, FileWrite, RecordFields } from './model/record-types.ts'
export { CommitError, StaleFilesError } from './store/errors.ts'
export type { Transaction } from './store/transaction.ts'

export interface StoreOptions {
  defaultLanguage: Lang
  /** Serve a record's source text in languages it has no file in. */
  fallback: boolean
  /** Called once per problem found; defaults to silence (the CLI logs them). */
  onProblem?: (problem: Problem) => void
  /** Give a source file written without `id` the next free id (the server does; `check` only with --fix). */
  assignIds?: boolean
  /** Told of each id given to a file (`check --fix` says what it changed). */
  onIdGiven?: (path: string, id: number) => void
  /** The zone of events that name none (the site's); UTC unless given. */
  timezone?: string
  /** The clock that places the horizon of open-ended series; tests pin it. */
  now?: () => number
  /** The most occurrences of series served in all (SERIES_LIMITS.total unless given). */
  maxOccurrences?: number
}

/** The content store: the only code that touches `content/`; every record in memory, with id and slug maps. */
export interface Store {
  readonly dir: string
  readonly media: MediaLibrary
  readonly defaultLanguage: Lang
  readonly fallback: boolean
  /** Bumped on every change to the records, so caches can key on it. */
  readonly version: number
  /** The records of a kind as files hold them (series included, their occurrences not), in id order. */
  list(kind: Kind): ContentRecord[]
  /** The events lists show, in id order: single events and every occurrence of a series, not the series. */
  events(): ContentRecord[]
  /** A series' occurrences, in order (none for any other record). */
  occurrencesOf(record: ContentRecord): ContentRecord[]
  /** A record or an occurrence by id. */
  get(kind: Kind, id: number): ContentRecord | undefined
  /** The kind that owns an id in the post or term id space. */
  kindOfId(space: 'post' | 'term', id: number): Kind | undefined
  bySlug(kind: Kind, lang: Lang, slug: string): ContentRecord | undefined
  /** The record's fields in a language (translation over source), or null when it has none there. */
  fieldsIn(record: ContentRecord, lang: Lang): RecordFields | null
  /** The language a record is served in when asked for `lang`. */
  langOf(record: ContentRecord, lang: Lang): Lang | null
  /** The problems of the tree now: broken files keep their last good version served until fixed. */
  problems(): Problem[]
  /**
   * The id the next record of a space would get, never used before (ids of records deleted for good are
   * not reused); it is not taken: a write takes one with its transaction's `nextId`.
   */
  nextId(space: 'post' | 'term'): number
  /** A free file stem for a new record, from its slug when that is ASCII, else from its kind and id. */
  newStem(kind: Kind, slug: string, id: number): string
  /** Writes a record's files (null removes one) atomically, one writer at a time; readers see it when it resolves. */
  commit(kind: Kind, stem: string, files: Partial<Record<Lang, FileWrite | null>>): Promise<ContentRecord | undefined>
  /**
   * Runs `work` as the only writer: what it reads cannot change under it, and its commits go out before any
   * other write.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>
  /**
   * Re-reads files changed on disk (relative paths), rebuilding only their records; true when one of them
   * was not as the store read or wrote it (false for the echo of its own writes).
   */
  reload(paths: string[]): Promise<boolean>
  /**
   * Re-reads whatever changed on disk since it was read (added, removed, modified files, media):
   * run once the watcher is ready, it closes the window between loading and watching.
   */
  reconcile(): Promise<void>
  /** Hears every change, with the record as it was and as it is (either may be absent). */
  onChange(listener: ChangeListener): void
  /** Hears a change of what is served that is no record's: the media library (a commit is told as its records'). */
  onBump(listener: () => void): void
  /**
   * Serves open-ended series up to the horizon the clock gives now (it moves once a month); true when
   * it moved. A server calls it from time to time (docs/recurrence.md).
   */
  moveHorizon(): Promise<boolean>
  /** The wall clock open-ended series are served to now (UTC), as `moveHorizon` last placed it. */
  horizon(): string
  /** A file's text as the store last read or wrote it (relative path), comments and all; undefined for none. */
  textOf(path: string): string | undefined
  /** When git last committed a change to a file of the tree (ms), as last asked (`askGit`); undefined outside git. */
  committedAt(path: string): number | undefined
  /**
   * Asks git again for its commit dates when the store changed since it last asked, or always when `again` (a
   * feed's SEQUENCE reads them); the records of files whose last commit moved are settled again, new objects, so
   * nothing kept shows the old dates and nothing else is made again.
   */
  askGit(again?: boolean): Promise<void>
}

/**
 * Loads the whole content tree and returns the store over it: a folder on disk, or any driver
 * (`memory-driver.ts` keeps a tree in memory). The store is composed of its seams (docs/architecture.md §5).
 */
export async function createStore(source: string | ContentDriver, options: StoreOptions): Promise<Store> {
  const driver = typeof source === 'string' ? createDiskDriver(source) : source
  const rules = {
    defaultLanguage: options.defaultLanguage,
    fallback: options.fallback,
    assignIds: !!options.assignIds,
    ...(options.onIdGiven ? { onIdGiven: options.onIdGiven } : {}),
    timezone: options.timezone ?? 'UTC',
    maxOccurrences: options.maxOccurrences ?? SERIES_LIMITS.total,
  }
  const now = options.now ?? Date.now
  const catalogue = createCatalogue(options.fallback)
  const state: StoreState = {
    rules,
    driver,
    catalogue,
    ids: createIdAllocation(
      driver,
      highestInUse(catalogue, () => state.media),
    ),
    changes: createChangeNotification(),
    problems: createProblemLog(options.onProblem),
    clashes: createClashes((key) => settleAgain(state, key)),
    texts: new Map(),
    queue: createWriteQueue(),
    media: mediaLibrary(),
    horizon: { now, at: horizonAt(now()) },
  }
  await loadTree(state)
  state.changes.reset()
  return storeOver(state)
}

/** The public face of a loaded store. */
function storeOver(state: StoreState): Store {
  const { catalogue, changes, queue } = state
  const reload = (paths: string[]) => reloadNow(state, paths)
  let asked: { version: number; done: Promise<void> } | undefined
  return {
    dir: state.driver.dir,
    get media() {
      return state.media
    },
    defaultLanguage: state.rules.defaultLanguage,
    fallback: state.rules.fallback,
    get version() {
      return changes.version
    },
    list: (kind) => catalogue.list(kind),
    events: () => catalogue.events(),
    occurrencesOf: (record) => catalogue.occurrencesOf(`${record.kind}/${record.stem}`),
    get: (kind, id) => catalogue.get(kind, id),
    kindOfId: (space, id) => catalogue.kindOfId(space, id),
    bySlug: (kind, lang, slug) => catalogue.bySlug(kind, lang, slug),
    fieldsIn: (record, lang) => catalogue.fieldsIn(record, lang),
    langOf: (record, lang) => catalogue.langOf(record, lang),
    problems: () => state.problems.list(),
    nextId: (space) => state.ids.next(space),
    newStem: (kind, slug, id) => freeStem(kind, slug, id, (stem) => catalogue.stemTaken(kind, stem)),
    commit: (kind, stem, files) => queue(() => readingStale(reload, () => commitNow(state, kind, stem, files))),
    transaction: (work) => queue(() => readingStale(reload, () => transactionNow(state, work))),
    reload: (paths) => queue(() => reload(paths)),
    reconcile: () => reconcileNow(state, queue),
    onChange: (listener) => changes.onChange(listener),
    onBump: (listener) => changes.onBump(listener),
    moveHorizon: () => queue(async () => moveHorizon(state, (key) => settleAgain(state, key))),
    horizon: () => state.horizon.at,
    textOf: (path) => state.texts.get(path),
    committedAt: (path) => state.driver.dates.changed(path),
    askGit: (again = false) => {
      if (again || asked?.version !== changes.version) {
        const done = state.driver.dates.refresh().then(async (moved) => {
          if (moved.length > 0) await queue(() => touchCommitted(state, moved))
        })
        // A settle that failed must not fail every feed of this version: the next ask tries again.
        const kept: { version: number; done: Promise<void> } = { version: changes.version, done }
        kept.done = done.catch(() => {
          if (asked === kept) asked = undefined
        })
        asked = kept
      }
      return asked.done
    },
  }
}
