import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { gatherNames } from '../../src/content/store/gather-names.ts'

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
  it('go on together, once, 25 ms after the first of them', () => {
    const { names, batches } = gatherer(new Set())
    names.add(['events/a.en.md'])
    vi.advanceTimersByTime(10)
    names.add(['events/b.en.md', 'events/a.en.md'])
    expect(batches).toEqual([])
    vi.advanceTimersByTime(15)
    expect(batches).toEqual([['events/a.en.md', 'events/b.en.md']])
    vi.advanceTimersByTime(100)
    expect(batches).toHaveLength(1)
  })

  it('hold a file missing when its batch is due one batch more, and hand it on once it is back', () => {
    const missing = new Set(['events/a.en.md'])
    const { names, batches } = gatherer(missing)
    names.add(['events/a.en.md', 'events/b.en.md'])
    vi.advanceTimersByTime(25)
    expect(batches).toEqual([['events/b.en.md']])
    missing.clear() // git wrote the new file
    vi.advanceTimersByTime(25)
    expect(batches).toEqual([['events/b.en.md'], ['events/a.en.md']])
  })

  it('tell a file deleted one batch later than a change', () => {
    const { names, batches } = gatherer(new Set(['events/a.en.md']))
    names.add(['events/a.en.md'])
    vi.advanceTimersByTime(25)
    expect(batches).toEqual([])
    vi.advanceTimersByTime(25)
    expect(batches).toEqual([['events/a.en.md']])
    vi.advanceTimersByTime(100)
    expect(batches).toHaveLength(1)
  })

  it('go on when the check of one name throws: that name is handed on, and later names still go', () => {
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
    vi.advanceTimersByTime(25)
    names.add(['events/later.en.md'])
    vi.advanceTimersByTime(25)
    expect(batches).toEqual([['events/x/a.en.md'], ['events/later.en.md']])
  })

  it('drop what is pending when the watcher closes', () => {
    const { names, batches } = gatherer(new Set())
    names.add(['events/a.en.md'])
    names.stop()
    vi.advanceTimersByTime(100)
    expect(batches).toEqual([])
  })

  it('take nothing more once the watcher is closing: its thread may still post names it heard', () => {
    const { names, batches } = gatherer(new Set())
    names.stop()
    names.add(['events/a.en.md'])
    vi.advanceTimersByTime(100)
    expect(batches).toEqual([])
  })
})
