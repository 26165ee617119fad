import { describe, expect, it } from 'vitest'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'
import { createStore } from '../../src/content/store.ts'
import { SAMPLE_NOW } from '../helpers.ts'

const series = (title: string) =>
  `---\nid: 7\ntitle: ${title}\nstart_date: 2026-12-01 09:00:00\nend_date: 2026-12-01 10:00:00\nrecurrence:\n  rrule: FREQ=WEEKLY;COUNT=3\n---\n`

describe('a series that loses its id to another record', () => {
  it('takes its occurrences with it: none is left served under the id it lost', async () => {
    const driver = createMemoryDriver({ 'events/b.en.md': series('Later in path order') })
    const store = await createStore(driver, { defaultLanguage: 'en', fallback: true, now: () => SAMPLE_NOW })
    expect(store.events().map((e) => e.source.data.title)).toEqual(Array(3).fill('Later in path order'))
    const told: string[] = []
    store.onChange((before, after) => told.push(`${before?.id ?? '-'}→${after?.id ?? '-'}`))
    await driver.write(
      'events/a.en.md',
      '---\nid: 7\ntitle: Plain\nstart_date: 2026-12-01 09:00:00\nend_date: 2026-12-01 10:00:00\n---\n',
    )
    await store.reload(['events/a.en.md'])
    expect(store.events().map((e) => `${e.id} ${e.source.data.title}`)).toEqual(['7 Plain'])
    expect(store.occurrencesOf(store.list('events').find((r) => r.stem === 'b') ?? store.get('events', 7)!)).toEqual([])
    expect(told.filter((t) => t.endsWith('→-')).length).toBe(4) // the series and its three occurrences
  })
})
