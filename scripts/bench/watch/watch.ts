// Issue 5 on a running server: edits on disk, then a git checkout, each timed until the API serves them.
import type { Settled } from '../common/idle.ts'
import { envNumber } from '../common/load.ts'
import type { KnownEvent, Server } from '../common/server.ts'
import { measureCheckout, type CheckoutResult } from './checkout.ts'
import { measureVisible, type VisibleResult } from './live.ts'

/** How many edits on disk are timed, and how many files the checkout changes. */
export interface WatchSizes {
  edits: number
  checkoutFiles: number
}

/** What the section measured: edit to served, and the checkout there and back. */
export interface WatchResult {
  visible: VisibleResult
  checkout: CheckoutResult
}

/** The section's sizes: BENCH_EDITS, BENCH_CHECKOUT_FILES. */
export function watchSizes(): WatchSizes {
  return { edits: envNumber('BENCH_EDITS', 50), checkoutFiles: envNumber('BENCH_CHECKOUT_FILES', 1000) }
}

/** How many events the section changes: a probe plus the edits, and the checkout's files. */
export function watchCounts(sizes: WatchSizes): [number, number] {
  return [sizes.edits + 1, sizes.checkoutFiles]
}

/** The edits of `edited` (the first one a probe), then the checkout of `checkedOut`. */
export async function measureWatch(
  server: Server,
  edited: KnownEvent[],
  checkedOut: KnownEvent[],
  settle: () => Promise<Settled>,
): Promise<WatchResult> {
  const visible = await measureVisible(server, edited, settle)
  const checkout = await measureCheckout(server, checkedOut, settle)
  return { visible, checkout }
}
