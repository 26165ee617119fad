import { constants, PerformanceObserver } from 'node:perf_hooks'
import { runInNewContext } from 'node:vm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collectNow } from '../../src/cli/heap.ts'
import { tempTree } from '../content/trees.ts'
import { startCli } from './spawn.ts'

describe('collectNow', () => {
  it('runs a forced full collection and leaves no gc function to contexts made after it', async () => {
    const forced: number[] = []
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const { kind, flags = 0 } = (entry as { detail?: { kind?: number; flags?: number } }).detail ?? {}
        // A major collection that was asked for, not one V8 chose on its own meanwhile.
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR && flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED)
          forced.push(entry.startTime)
      }
    })
    observer.observe({ entryTypes: ['gc'] })
    try {
      const before = performance.now()
      collectNow()
      // GC entries reach observers after the collection, on a later turn of the event loop.
      for (let tries = 0; tries < 100 && !forced.some((at) => at >= before); tries++)
        await new Promise((wait) => setTimeout(wait, 10))
      expect(forced.some((at) => at >= before)).toBe(true)
    } finally {
      observer.disconnect()
    }
    expect(runInNewContext('typeof gc')).toBe('undefined')
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined()
  })
})

describe('almanac serve', () => {
  let tree: Awaited<ReturnType<typeof tempTree>>
  beforeEach(async () => {
    tree = await tempTree()
  })
  afterEach(async () => {
    await tree.cleanup()
  })

  it('collects the load garbage once, before it says it is ready', async () => {
    // V8's trace names a collection asked for through gc() "testing"; nothing else in a start asks for one.
    const args = ['serve', '--port', '0', '--host', '127.0.0.1', '--quiet']
    const server = startCli(args, tree.dir, {}, ['--trace-gc'])
    try {
      await server.waitFor(/Almanac is serving/, 30_000)
      const out = server.stdout()
      const before = out.slice(0, out.indexOf('Almanac is serving')).split('\n')
      expect(
        before.filter((line) => /Mark-Compact.* testing;/.test(line)),
        out,
      ).toHaveLength(1)
    } finally {
      await server.stop()
    }
  }, 60_000)
})
