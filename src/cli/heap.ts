import { subscribe } from 'node:diagnostics_channel'
import { setFlagsFromString } from 'node:v8'
import type { Worker } from 'node:worker_threads'

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
 * V8's factor for growing the young generation (`--semi-space-growth-factor`, read each time it grows). At 1 the
 * young generation stays the size it has; V8's own is 2, up to two 16 MB semi-spaces. Held from before the load, the
 * main thread's ends the load at 8 MB and stays there while serving, where it grew to 32 MB: at 10,000 events × 4
 * languages on the 2-core bench machine, RSS after a minute of the varied mix 307–311 MB against 331–332 and the
 * start within the noise, for twice to three times the scavenges under the mix and ~8% of its rate (docs/architecture.md
 * section 9). Let grow to 16 MB once the tree was in (looked at after each collection), it reached 32 MB all the same:
 * a collection's notice comes after the next, and the work that follows a load grew it twice between them.
 */
const HELD_GROWTH = 1

/**
 * Every new isolate puts the factor back to V8's default (the flag is the process's, and a worker's heap is
 * configured with it), so each worker thread that starts, the watcher's or the Markdown renderer's, let the main
 * thread's young generation grow again: the factor is set anew once each worker is online
 * (test/cli/heap.test.ts). Node announces every new worker on the `worker_threads` diagnostics channel.
 */
let held = false
function holdAgainOnline({ worker }: { worker: Worker }): void {
  worker.once('online', () => {
    if (held) setFlagsFromString(`--semi-space-growth-factor=${HELD_GROWTH}`)
  })
}

/** Holds the young generation at the size it has now, from here on (see HELD_GROWTH), worker threads or not. */
export function holdYoungGeneration(): void {
  if (!held) subscribe('worker_threads', holdAgainOnline as (message: unknown) => void)
  held = true
  setFlagsFromString(`--semi-space-growth-factor=${HELD_GROWTH}`)
}

/** Once the tree is loaded: the heap held near what is live from now on (a V8 flag, read at each full collection). */
export function holdHeapNearLive(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}
