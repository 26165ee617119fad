import { setFlagsFromString } from 'node:v8'

/**
 * How far V8 lets the heap grow past what the last full collection kept, once the tree is loaded
 * (percent). Left to itself V8 grows it by up to 4× while collections are cheap: under the varied
 * mix the main heap swung between 158 MB live and 420 MB, and RSS climbed to 700–850 MB with it.
 * At 25% it stays within ~200–250 MB, for a full collection every few seconds (mostly concurrent
 * marking, a few milliseconds of pause). Set after the load: a start that grew the heap by a quarter
 * at a time would collect the growing tree over and over.
 */
export const HEAP_GROWING_PERCENT = 25

/** Holds the heap near what is live from now on (a V8 flag, read at each full collection). */
export function holdHeapNearLive(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}
