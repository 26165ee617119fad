import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// The young generation `serve` holds (src/cli/heap.ts), in a process of its own: V8 flags are the process's, and
// every new isolate puts the growth factor back to 2, so a worker thread started after the hold would undo it.
const HEAP = resolve(import.meta.dirname, '../../src/cli/heap.ts')

/**
 * The main thread's young generation (MB, both semi-spaces) after allocating ~100 MB, a third of which lives, with
 * a worker thread started and online in between; `hold` is how the script holds it: through heap.ts, by setting the
 * flag once as V8 allows, or not at all.
 */
function youngAfterWorker(hold: 'heap.ts' | 'flag once' | 'none'): number {
  const script = `
    import { setFlagsFromString, getHeapSpaceStatistics } from 'node:v8'
    import { Worker } from 'node:worker_threads'
    const { holdYoungGeneration } = await import(${JSON.stringify(HEAP)})
    const hold = ${JSON.stringify(hold)}
    if (hold === 'heap.ts') holdYoungGeneration()
    if (hold === 'flag once') setFlagsFromString('--semi-space-growth-factor=1')
    const worker = new Worker('setTimeout(() => {}, 50)', { eval: true })
    await new Promise((online) => worker.once('online', online))
    // The listener heap.ts put on 'online' ran before this one, or runs in the same turn: let it.
    await new Promise((next) => setImmediate(next))
    const kept = []
    for (let i = 0; i < 1_500_000; i++) {
      const value = { i, text: 'event ' + i, pair: [i, i + 1] }
      if (i % 3 === 0) kept.push(value)
    }
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size
    console.log(String(young / 1048576), kept.length)
  `
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  })
  return Number(out.split(' ')[0])
}

describe('the young generation serve holds', () => {
  it('stays the size it was when held, though a worker thread started since', () => {
    // Without a hold V8 grows it to its largest (two 16 MB semi-spaces on 64-bit Node 20).
    const free = youngAfterWorker('none')
    expect(free).toBeGreaterThanOrEqual(16)
    // Set once, the flag is undone by the worker's isolate: the young generation grows as if never held.
    expect(youngAfterWorker('flag once')).toBe(free)
    // Held through heap.ts, it is set again once the worker is online.
    expect(youngAfterWorker('heap.ts')).toBeLessThanOrEqual(4)
  })
})
