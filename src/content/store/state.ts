import type { Lang } from '../../languages.ts'
import type { Catalogue } from './catalogue.ts'
import type { ChangeNotification } from './change-notification.ts'
import type { Clashes } from '../checks/clashes.ts'
import type { ContentDriver } from './driver.ts'
import type { IdAllocation } from './id-allocation.ts'
import type { MediaLibrary } from './media.ts'
import type { ProblemLog } from '../checks/problems.ts'
import type { WriteQueue } from './write-queue.ts'

/** How a store reads its tree (the options of `createStore` it keeps). */
export interface StoreRules {
  defaultLanguage: Lang
  /** Serve a record's source text in languages it has no file in. */
  fallback: boolean
  /** Give a source file written without `id` the next free id. */
  assignIds: boolean
  /** Told of each id given. */
  onIdGiven?: (path: string, id: number) => void
  /** The zone of events that name none (the site's): a series' UNTIL in UTC is read in it. */
  timezone: string
  /** The most occurrences of series served in all (SERIES_LIMITS.total). */
  maxOccurrences: number
}

/** How far open-ended series are served: `at` (a wall clock) follows the clock, once a month (docs/recurrence.md). */
export interface Horizon {
  now: () => number
  at: string
}

/**
 * Everything a store holds, in one object: the seams it is composed of (the driver, the catalogue,
 * id allocation, change notification) and what binds them (the texts read, the problems, the clashes
 * waiting to be settled again, the write queue). The store's steps (load, settle, commit, reload)
 * are functions over it.
 */
export interface StoreState {
  readonly rules: StoreRules
  readonly driver: ContentDriver
  readonly catalogue: Catalogue
  readonly ids: IdAllocation
  readonly changes: ChangeNotification
  readonly problems: ProblemLog
  readonly clashes: Clashes
  /** The text last read or written, per path: unchanged files are skipped. */
  readonly texts: Map<string, string>
  /** One writer at a time: commits, transactions, reloads and redating run in turn. */
  readonly queue: WriteQueue
  media: MediaLibrary
  readonly horizon: Horizon
}
