import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * How far V8 lets the heap grow past what the last full collection kept, once the tree is loaded
 * (percent). Left to itself V8 grows it by up to 4× while collections are cheap: under the varied
 * mix the main heap swung between 158 MB live and 420 MB, and RSS climbed to 700–850 MB with it.
 * At 25% it stays within ~200–250 MB, for a full collection every few seconds (mostly concurrent
 * marking, a few milliseconds of pause). Set after the load: a start that grew the heap by a quarter
 * at a time would collect the growing tree over and over. It holds from the next full collection on, which `serve`
 * runs itself once ready (collectNow).
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

/**
 * One full collection, now, so that HEAP_GROWING_PERCENT holds from here on. V8 reads the flag only as a full
 * collection ends, to set the heap's next limit, and the last one of a load leaves a limit of up to four times what
 * was live then: under the varied mix at 10,000 events the first full collection after the load came ~65 s in, the
 * heap at ~260 MB and RSS ~450 MB, where it stays near 320 MB once a collection has run (docs/architecture.md
 * section 9). `serve` runs it once, when it is ready: ~100 ms at 10,000 events, ~355 at 40,000, a few at the demo
 * calendar.
 * V8 offers no way to ask for a collection but its `gc` function, which exists only in contexts made while
 * `--expose-gc` is set: one is made with the flag set and the flag is put back at once (the flag is the process's,
 * so a worker thread setting up its context in that instant could get a `gc` too, and never calls it). Best effort:
 * a V8 that installs no `gc` collects nothing here, and the heap is held from its own first full collection on.
 */
export function collectNow(): void {
  // Started with --expose-gc, the process has its own, and the flag stays as it was given.
  const gc = (globalThis as { gc?: () => void }).gc ?? madeGc()
  gc?.()
}

/** V8's `gc`, from a context made while `--expose-gc` is set; the flag is put back before anything else runs. */
function madeGc(): (() => void) | undefined {
  setFlagsFromString('--expose-gc')
  try {
    return runInNewContext("typeof gc === 'function' ? gc : undefined") as (() => void) | undefined
  } finally {
    setFlagsFromString('--no-expose-gc')
  }
}
