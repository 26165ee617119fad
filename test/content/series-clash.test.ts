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

describe('the occurrences of every series together', () => {
  it('stop at the store’s limit: a series that would pass it serves none, is told, and others are served', async () => {
    const weekly = (id: number, title: string) =>
      `---\nid: ${id}\ntitle: ${title}\nstart_date: 2026-12-01 09:00:00\nend_date: 2026-12-01 10:00:00\nrecurrence:\n  rrule: FREQ=WEEKLY;COUNT=5\n---\n`
    const problems: string[] = []
    const driver = createMemoryDriver({
      'events/a.en.md': weekly(1, 'First'),
      'events/b.en.md': weekly(2, 'Second'),
      'events/c.en.md':
        '---\nid: 3\ntitle: Plain\nstart_date: 2026-12-01 09:00:00\nend_date: 2026-12-01 10:00:00\n---\n',
    })
    const store = await createStore(driver, {
      defaultLanguage: 'en',
      fallback: true,
      now: () => SAMPLE_NOW,
      maxOccurrences: 8,
      onProblem: (problem) => problems.push(`${problem.path}: ${problem.message}`),
    })
    expect(store.events().map((e) => e.source.data.title)).toEqual(['Plain', ...Array(5).fill('First')])
    expect(store.get('events', 2)?.source.data.title).toBe('Second') // the series itself still answers
    expect(problems.join('\n')).toContain('events/b.en.md: recurrence: the calendar serves at most 8 occurrences')
    // Room made by the first series ending: the second is served when it next settles.
    await driver.write('events/a.en.md', weekly(1, 'First').replace('COUNT=5', 'COUNT=2'))
    await store.reload(['events/a.en.md'])
    await driver.write('events/b.en.md', weekly(2, 'Second again'))
    await store.reload(['events/b.en.md'])
    expect(store.events().filter((e) => e.series).length).toBe(7)
  })
})
