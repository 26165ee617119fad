import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeForm, linksAndTotals, pageLinks, pageOf, paginate } from '../../src/query/paging.ts'

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

const items = Array.from({ length: 5 }, (_, i) => i + 1)

describe('paging', () => {
  it.each([
    [1, 2, [1, 2], 3, true, false],
    [2, 2, [3, 4], 3, true, true],
    [3, 2, [5], 3, false, true],
    [4, 2, [], 3, false, true],
    [1, 50, [1, 2, 3, 4, 5], 1, false, false],
  ])('page %i of %i per page holds %j of %i pages', (page, perPage, expected, totalPages, next, previous) => {
    const result = paginate(items, page, perPage)
    expect(result.items).toEqual(expected)
    expect(result.totalPages).toBe(totalPages)
    expect(result.hasNext).toBe(next)
    expect(result.hasPrevious).toBe(previous)
  })

  it('has no pages at all for an empty list', () => {
    expect(paginate([], 1, 9)).toMatchObject({ total: 0, totalPages: 0, hasNext: false, hasPrevious: false })
  })

  it('builds rest_url raw, next and previous form-encoded with page last (docs/compatibility.md §30)', () => {
    const query: [string, string][] = [
      ['page', '2'],
      ['per_page', '2'],
      ['start_date', '2026-11-21 00:00:00'],
      ['status', 'publish'],
    ]
    const links = pageLinks('http://x/events/', query, paginate(items, 2, 2), false)
    expect(links).toEqual({
      rest_url: 'http://x/events/?page=2&per_page=2&start_date=2026-11-21 00:00:00&status=publish',
      next_rest_url: 'http://x/events/?per_page=2&start_date=2026-11-21+00%3A00%3A00&status=publish&page=3',
      previous_rest_url: 'http://x/events/?per_page=2&start_date=2026-11-21+00%3A00%3A00&status=publish',
    })
  })

  it('encodes like PHP urlencode', () => {
    expect(encodeForm("a b:c/d~e'f")).toBe('a+b%3Ac%2Fd%7Ee%27f')
  })

  // The envelope's end is written key by key (a spread was slower): it must stay the spread's JSON, keys in order.
  it("writes a list's links and totals as the links spread before the totals would be", () => {
    const url = fc.oneof(fc.webUrl(), fc.string({ unit: 'grapheme', maxLength: 300 }))
    const links = fc.record(
      { rest_url: url, next_rest_url: url, previous_rest_url: url },
      { requiredKeys: ['rest_url'] },
    )
    fc.assert(
      fc.property(links, fc.nat(10_000), fc.integer({ min: 1, max: 60 }), (given, total, perPage) => {
        const page = pageOf([], total, 1, perPage)
        const spread = JSON.stringify({ ...given, total: page.total, total_pages: page.totalPages })
        expect(linksAndTotals(given, page), `seed ${SEED}`).toBe(spread)
      }),
      { seed: SEED, numRuns: 300 },
    )
  })
})
