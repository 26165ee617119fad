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

/**
 * V8's factor for growing the young generation (`--semi-space-growth-factor`, read each time it grows): 1 as the
 * tree begins to load, V8's own default (2) after. Measured at 10,000 events × 4 languages on the 2-core bench
 * machine, starts interleaved: spawn to first answer ~60 ms faster (median of 8: 1,744 against 1,806 ms), the same
 * memory once ready. It holds only until a worker thread starts (one does during the load): every new
 * isolate puts the factor back to 2, the flag being the process's. Held through the whole load and while serving
 * (set again as each worker came online), the server was ~20 MB smaller, but a repeated search and the varied mix
 * lost a fifth and ~8% of their rates: docs/architecture.md section 9.
 */
const LOAD_GROWTH = 1
const DEFAULT_GROWTH = 2

/** The young generation held small while a tree loads (see LOAD_GROWTH). */
export function holdYoungGenerationForLoad(): void {
  setFlagsFromString(`--semi-space-growth-factor=${LOAD_GROWTH}`)
}

/**
 * Once the tree is loaded: the heap held near what is live from now on, the young generation let grow again (V8
 * flags, read at each full collection and each growth).
 */
export function holdHeapNearLive(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
  setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH}`)
}
