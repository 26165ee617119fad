import { describe, expect, it } from 'vitest'
import { createAnswerCache, FIRST_ASKS, type KeptAnswer } from '../../src/http/answer-cache.ts'

// The bounds of the answers an app keeps (src/http/answer-cache.ts, docs/architecture.md §3).

function answer(size: number, from = -Infinity, until = Infinity): KeptAnswer {
  return {
    body: new Uint8Array(size),
    headers: {},
    notModified: {},
    etag: '"x"',
    wire: () => ({ ok: [], notModified: [] }),
    served: () => new Uint8Array(size),
    from,
    until,
  }
}

describe('the answers an app keeps', () => {
  it('holds at most its number of answers, the least recently used going first', () => {
    const cache = createAnswerCache({ maxBytes: 1 << 30, maxEntries: 3 })
    for (const key of ['a', 'b', 'c']) cache.keep(key, 0, answer(10))
    expect(cache.find('a', 0, 0)).toBeDefined()
    cache.keep('d', 0, answer(10))
    expect(cache.size).toBe(3)
    expect(cache.find('b', 0, 0)).toBeUndefined()
    for (const key of ['a', 'c', 'd']) expect(cache.find(key, 0, 0), key).toBeDefined()
  })

  it('holds at most its bytes, and never an answer larger than a quarter of them', () => {
    const maxBytes = 64 * 1024
    const cache = createAnswerCache({ maxBytes, maxEntries: 1000 })
    for (let i = 0; i < 100; i++) {
      cache.keep(`k${i}`, 0, answer(3000))
      expect(cache.bytes).toBeLessThanOrEqual(maxBytes)
    }
    expect(cache.size).toBeGreaterThan(10)
    expect(cache.size).toBeLessThan(100)
    expect(cache.find('k99', 0, 0)).toBeDefined()
    cache.keep('huge', 0, answer(maxBytes / 4))
    expect(cache.find('huge', 0, 0)).toBeUndefined()
  })

  it('serves nothing kept over another store version, and keeps nothing computed over an older one', () => {
    const cache = createAnswerCache()
    cache.keep('a', 1, answer(10))
    expect(cache.find('a', 1, 0)).toBeDefined()
    expect(cache.find('a', 2, 0)).toBeUndefined()
    expect(cache.size).toBe(0)
    cache.keep('b', 1, answer(10))
    expect(cache.find('b', 2, 0)).toBeUndefined()
  })

  it('serves an answer only for a clock inside the span it holds for', () => {
    const cache = createAnswerCache()
    cache.keep('a', 0, answer(10, 1000, 2000))
    expect(cache.find('a', 0, 999)).toBeUndefined()
    cache.keep('a', 0, answer(10, 1000, 2000))
    expect(cache.find('a', 0, 1000)).toBeDefined()
    expect(cache.find('a', 0, 1999)).toBeDefined()
    expect(cache.find('a', 0, 2000)).toBeUndefined()
    expect(cache.size).toBe(0)
    expect(cache.bytes).toBe(0)
  })

  it('finds an answer by a raw request only once it was aliased to a kept key, and for that version only', () => {
    const cache = createAnswerCache({ maxBytes: 1 << 30, maxEntries: 3 })
    cache.alias('GET /x ', 'k', 0)
    expect(cache.findRaw('GET /x ', 0, 0)).toBeUndefined()
    cache.keep('k', 0, answer(10))
    cache.alias('GET /x ', 'k', 0)
    expect(cache.findRaw('GET /x ', 0, 0)).toBeDefined()
    expect(cache.findRaw('GET /x ', 1, 0)).toBeUndefined()
    cache.keep('k', 1, answer(10))
    expect(cache.findRaw('GET /x ', 1, 0), 'aliases go with the version').toBeUndefined()
  })

  it('holds at most twice its number of answers as aliases, and none for a request too long', () => {
    const cache = createAnswerCache({ maxBytes: 1 << 30, maxEntries: 2 })
    cache.keep('k', 0, answer(10))
    for (let n = 0; n < 10; n++) cache.alias(`/r${n}`, 'k', 0)
    const found = Array.from({ length: 10 }, (_, n) => cache.findRaw(`/r${n}`, 0, 0) !== undefined)
    expect(found).toEqual([false, false, false, false, false, false, true, true, true, true])
    cache.alias(`/${'x'.repeat(4096)}`, 'k', 0)
    expect(cache.findRaw(`/${'x'.repeat(4096)}`, 0, 0)).toBeUndefined()
  })

  it('takes a first answer while it fits beside the others, one that would push another out only on its second ask', () => {
    const cache = createAnswerCache({ maxBytes: 1 << 30, maxEntries: 2 })
    expect(cache.admits('a', 0, 10)).toBe(true)
    cache.keep('a', 0, answer(10))
    expect(cache.admits('b', 0, 10)).toBe(true)
    cache.keep('b', 0, answer(10))
    expect(cache.admits('a', 0, 10), 'an answer kept again takes no more room').toBe(true)
    expect(cache.admits('c', 0, 10), 'asked once, it would push another out').toBe(false)
    expect(cache.admits('c', 0, 10), 'asked again').toBe(true)
    expect(cache.admits('c', 0, 10), 'a second ask counts once').toBe(false)
  })

  it('takes a first answer that would go over its bytes only on its second ask', () => {
    const cache = createAnswerCache({ maxBytes: 64 * 1024, maxEntries: 1000 })
    cache.keep('a', 0, answer(14 * 1024))
    cache.keep('b', 0, answer(14 * 1024))
    cache.keep('c', 0, answer(14 * 1024))
    expect(cache.admits('d', 0, 14 * 1024), 'it fits').toBe(true)
    cache.keep('d', 0, answer(14 * 1024))
    expect(cache.admits('e', 0, 12 * 1024)).toBe(false)
    expect(cache.admits('e', 0, 12 * 1024)).toBe(true)
    expect(cache.admits('f', 0, 16 * 1024), 'over a quarter of the bytes, never').toBe(false)
    expect(cache.admits('f', 0, 16 * 1024)).toBe(false)
  })

  it(`remembers at most ${FIRST_ASKS} first asks, the oldest forgotten first, and none of another store version`, () => {
    const cache = createAnswerCache({ maxBytes: 1 << 30, maxEntries: 1 })
    cache.keep('kept', 0, answer(10))
    for (let n = 0; n <= FIRST_ASKS; n++) expect(cache.admits(`q${n}`, 0, 10)).toBe(false)
    expect(cache.admits('q0', 0, 10), 'forgotten: a first ask again').toBe(false)
    expect(cache.admits(`q${FIRST_ASKS}`, 0, 10)).toBe(true)
    expect(cache.admits('q2', 1, 10), 'a new version starts empty, with room').toBe(true)
    cache.keep('kept', 1, answer(10))
    expect(cache.admits('q3', 1, 10), 'a first ask of the new version').toBe(false)
    expect(cache.admits('q3', 0, 10), 'nothing of an older version').toBe(false)
  })
})
