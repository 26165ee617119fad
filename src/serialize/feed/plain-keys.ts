import type { ContentRecord, Store } from '../../content/store.ts'
import type { Memo, MemoCache } from '../../context/caches.ts'
import { plainEpoch } from '../plain-epoch.ts'

// A plain event's VEVENT memo key (vevent.ts) names the serials and commit dates of every record the VEVENT shows:
// working it out for each of 10,000 events is most of what a feed costs once its VEVENTs are kept (a static build
// writes four such feeds after every edit). It changes only when the event does (a new record object) or when
// something it could show changes: a venue, organizer, category, tag or series, or anything that moves the store's
// version without telling of a record (the media library; a commit that moves a file's date settles its record again,
// a new object). So each plain event's key is kept
// with the epoch of such changes, and found again while that epoch stays. The keys go with their records (a weak
// map): about 150 bytes per event and language, beside the records themselves; the VEVENTs stay in the memo. An app
// that follows a static build's edits holds each VEVENT with its key too (`holdVevents`), skipping the memo's lookup.

/** A zone's span of instants a VEVENT uses (zone-windows.ts widens each zone's VTIMEZONE to it), or null: none. */
export type Span = readonly [zone: string, from: number, to: number] | null

interface Kept {
  epoch: number
  key: string
  span: Span
  memo?: Memo
}

interface Keys {
  epoch: () => number
  kept: WeakMap<ContentRecord, Map<string, Kept>>
}

/** One per app: its feed memo cache, and the store it serves. */
const keysOf = new WeakMap<MemoCache, Keys>()
/** The caches whose apps hold each plain event's VEVENT with its key (`holdVevents`). */
const holding = new WeakSet<MemoCache>()

/**
 * Has an app hold each plain event's VEVENT beside its key, past the memo's bound: for the app of a static build,
 * whose memo is sized to keep every VEVENT of its feeds anyway (src/prerender/renderer.ts), never for a server's.
 */
export function holdVevents(cache: MemoCache): void {
  holding.add(cache)
}

/**
 * The memo key and span of a plain event (neither a series nor an occurrence) in a language and site (`scope`),
 * made by `make` when nothing it could depend on changed since last asked.
 */
export function plainKey(
  cache: MemoCache,
  store: Store,
  record: ContentRecord,
  scope: string,
  make: () => { key: string; span: Span },
): { key: string; span: Span; memo?: Memo } {
  let keys = keysOf.get(cache)
  if (!keys) keysOf.set(cache, (keys = { epoch: () => plainEpoch(cache, store), kept: new WeakMap() }))
  const epoch = keys.epoch()
  let byScope = keys.kept.get(record)
  if (!byScope) keys.kept.set(record, (byScope = new Map()))
  const found = byScope.get(scope)
  if (found?.epoch === epoch) return found
  const made = make()
  byScope.set(scope, { epoch, ...made })
  return made
}

/** Whether an app holds its plain events' VEVENTs (`holdVevents`). */
export function holdsVevents(cache: MemoCache): boolean {
  return holding.has(cache)
}

/** A plain event's held VEVENT and span (`holdVevents`), when nothing it could depend on changed since. */
export function heldPlain(
  cache: MemoCache,
  record: ContentRecord,
  scope: string,
): { memo: Memo; span: Span } | undefined {
  const keys = keysOf.get(cache)
  const found = keys?.kept.get(record)?.get(scope)
  if (!found?.memo || found.epoch !== keys!.epoch()) return undefined
  return found as { memo: Memo; span: Span }
}

/** Keeps a plain event's VEVENT with its key, when its app holds them (`holdVevents`). */
export function holdVevent(cache: MemoCache, record: ContentRecord, scope: string, memo: Memo): void {
  if (!holding.has(cache)) return
  const kept = keysOf.get(cache)?.kept.get(record)?.get(scope)
  if (kept) kept.memo = memo
}
