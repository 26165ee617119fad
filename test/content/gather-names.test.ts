import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CHECKED_AT_ONCE, gatherNames } from '../../src/content/store/gather-names.ts'

// git replaces a file by removing it and writing the new one; a batch read in between lost the file for a
// moment (the event left the API). A name whose file is missing waits one batch more.

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

function gatherer(missing: Set<string>) {
  const batches: string[][] = []
  const names = gatherNames(
    25,
    (paths) => batches.push(paths),
    (path) => missing.has(path),
  )
  return { names, batches }
}

describe('the names the watcher hears', () => {
  it('go on together, once, 25 ms after the first of them', async () => {
    const { names, batches } = gatherer(new Set())
    names.add(['events/a.en.md'])
    await vi.advanceTimersByTimeAsync(10)
    names.add(['events/b.en.md', 'events/a.en.md'])
    expect(batches).toEqual([])
    await vi.advanceTimersByTimeAsync(15)
    expect(batches).toEqual([['events/a.en.md', 'events/b.en.md']])
    await vi.advanceTimersByTimeAsync(100)
    expect(batches).toHaveLength(1)
  })

  it('hold a file missing when its batch is due one batch more, and hand it on once it is back', async () => {
    const missing = new Set(['events/a.en.md'])
    const { names, batches } = gatherer(missing)
    names.add(['events/a.en.md', 'events/b.en.md'])
    await vi.advanceTimersByTimeAsync(25)
    expect(batches).toEqual([['events/b.en.md']])
    missing.clear() // git wrote the new file
    await vi.advanceTimersByTimeAsync(25)
    expect(batches).toEqual([['events/b.en.md'], ['events/a.en.md']])
  })

  it('tell a file deleted one batch later than a change', async () => {
    const { names, batches } = gatherer(new Set(['events/a.en.md']))
    names.add(['events/a.en.md'])
    await vi.advanceTimersByTimeAsync(25)
    expect(batches).toEqual([])
    await vi.advanceTimersByTimeAsync(25)
    expect(batches).toEqual([['events/a.en.md']])
    await vi.advanceTimersByTimeAsync(100)
    expect(batches).toHaveLength(1)
  })

  it('go on when the check of one name throws: that name is handed on, and later names still go', async () => {
    const batches: string[][] = []
    const names = gatherNames(
      25,
      (paths) => batches.push(paths),
      (path) => {
        if (path === 'events/x/a.en.md') throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' })
        return false
      },
    )
    names.add(['events/x/a.en.md'])
    await vi.advanceTimersByTimeAsync(25)
    names.add(['events/later.en.md'])
    await vi.advanceTimersByTimeAsync(25)
    expect(batches).toEqual([['events/x/a.en.md'], ['events/later.en.md']])
  })

  it('drop what is pending when the watcher closes', async () => {
    const { names, batches } = gatherer(new Set())
    names.add(['events/a.en.md'])
    names.stop()
    await vi.advanceTimersByTimeAsync(100)
    expect(batches).toEqual([])
  })

  it('take nothing more once the watcher is closing: its thread may still post names it heard', async () => {
    const { names, batches } = gatherer(new Set())
    names.stop()
    names.add(['events/a.en.md'])
    await vi.advanceTimersByTimeAsync(100)
    expect(batches).toEqual([])
  })

  it('check a large batch a slice at a time, letting other work run between slices', async () => {
    vi.useRealTimers()
    const all = names(CHECKED_AT_ONCE * 3 + 1)
    // At the first check of each slice: did a callback queued at the first check of the slice before run?
    const turned: boolean[] = []
    let ran = false
    let checked = 0
    const batch = await new Promise<string[]>((resolve) => {
      const gathered = gatherNames(1, resolve, () => {
        if (checked++ % CHECKED_AT_ONCE === 0) {
          turned.push(ran)
          ran = false
          setImmediate(() => {
            ran = true
          })
        }
        return false
      })
      gathered.add(all)
    })
    expect(batch).toEqual(all)
    expect(turned).toEqual([false, true, true, true])
  })

  it('hand nothing on from a check under way when the watcher closes, and check no further slice', async () => {
    vi.useRealTimers()
    const batches: string[][] = []
    let checked = 0
    const gathered = gatherNames(
      1,
      (paths) => batches.push(paths),
      () => {
        // Closed between the first slice and the second.
        if (checked++ === 0) setImmediate(() => gathered.stop())
        return false
      },
    )
    gathered.add(names(CHECKED_AT_ONCE * 2))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(checked).toBe(CHECKED_AT_ONCE)
    expect(batches).toEqual([])
  })

  it('keep names heard during a check for the next batch, due after the check ends', async () => {
    vi.useRealTimers()
    const all = names(CHECKED_AT_ONCE * 2)
    const batches: string[][] = []
    let checked = 0
    const gathered = gatherNames(
      1,
      (paths) => batches.push(paths),
      () => {
        // Heard between the first slice and the second.
        if (checked++ === 0) setImmediate(() => gathered.add(['events/late.en.md', all[0]!]))
        return false
      },
    )
    gathered.add(all)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(batches).toEqual([all, ['events/late.en.md', all[0]]])
  })
})

/** `count` names of event files. */
function names(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `events/e${i}.en.md`)
}
