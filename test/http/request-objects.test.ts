import { describe, expect, it } from 'vitest'
import { EVENT_LIST_ARGS } from '../../src/args/events.ts'
import { parseParams } from '../../src/args/parse.ts'
import { keptAnswer } from '../../src/http/answer-reuse.ts'
import { listEvents } from '../../src/query/events.ts'
import { call, fixtureApp } from '../helpers.ts'

// What a request makes and hands on carries no accessor of its own: V8 11 keeps what it makes for an accessor in
// its old generation, with everything the accessor's closure reaches, until the next full collection
// (test/architecture/literal-accessors.test.ts says where accessors may be written, and why).
const accessors = (object: object) =>
  Object.entries(Object.getOwnPropertyDescriptors(object))
    .filter(([, descriptor]) => descriptor.get !== undefined || descriptor.set !== undefined)
    .map(([name]) => name)

describe('an event list as listEvents returns it', () => {
  it('has no accessor, and all() gives every match in list order, the page among them, through a window or not', async () => {
    const app = await fixtureApp('filters')
    const ctx = app.context({})
    // Dates alone, or with one id set (a venue), are answered from a date window and its places; `featured` is a
    // filter the window does not know, answered from the list's matches (src/query/events.ts).
    const queries: Record<string, string>[] = [
      { per_page: '1' },
      { per_page: '1', start_date: '2020-01-01' },
      { per_page: '1', venue: '1' },
      { per_page: '1', featured: 'false' },
    ]
    for (const query of queries) {
      const { values, given } = parseParams(EVENT_LIST_ARGS, query, ctx)
      const list = listEvents(values, given, ctx)
      expect(accessors(list)).toEqual([])
      const all = list.all().map((entry) => entry.id)
      expect(all.length).toBe(list.page.total)
      expect(all.length).toBeGreaterThan(1)
      expect(all.slice(0, 1)).toEqual(list.page.items.map((entry) => entry.id))
      // The same events the API lists, in its order.
      const served = await call(app, `events?${new URLSearchParams({ ...query, per_page: '50' })}`)
      expect(all).toEqual((served.body as { events: { id: number }[] }).events.map((event) => event.id))
    }
  })
})

describe('a kept answer', () => {
  it('has no accessor, and makes its header lists once, when first asked', () => {
    const out = { status: 200, headers: { 'Content-Type': 'application/json', ETag: '"e"' }, etag: '"e"', body: '{}' }
    const kept = keptAnswer(out, { from: 0, until: Infinity })
    expect(accessors(kept)).toEqual([])
    const wire = kept.wire()
    expect(kept.wire()).toBe(wire)
    expect(wire.ok).toEqual(expect.arrayContaining(['etag', '"e"', 'content-type', 'application/json']))
    expect(wire.notModified).not.toContain('content-type')
  })
})
