import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'

// `almanac check` reads and `--fix` writes through the store's driver, as the server does: the driver
// is the one way to the tree (it refuses paths that would leave it), so a tree in memory is checked
// and fixed in memory, and nothing lands on a disk.

const MEETUP = [
  '---',
  'id: 3',
  'end_date: 2027-01-01 19:00:00',
  'title: Meetup',
  'start_date: 2027-01-01 18:00:00',
  '---',
  'Bring a friend.',
  '',
].join('\n')
const FRESH = '---\ntitle: Fresh\nstart_date: 2027-02-01 18:00:00\nend_date: 2027-02-01 19:00:00\n---\n'

describe('almanac check --fix over a driver', () => {
  it('writes ids, dates and key order into the tree the driver holds', async () => {
    const driver = createMemoryDriver({ 'events/meetup.en.md': MEETUP, 'events/fresh.en.md': FRESH })
    const { fixed } = await checkContent(driver, true)
    expect(driver.peek('events/fresh.en.md')).toMatch(/^---\nid: 4\ntitle: Fresh\n/)
    const meetup = driver.peek('events/meetup.en.md') ?? ''
    expect(meetup).toMatch(/^---\nid: 3\ntitle: Meetup\ndate: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\nstart_date: /)
    expect(meetup.endsWith('---\nBring a friend.\n')).toBe(true)
    expect(fixed).toContain('events/meetup.en.md: keys put in order')
    expect(fixed.some((line) => line.startsWith('events/meetup.en.md: date '))).toBe(true)
    expect(existsSync(driver.dir)).toBe(false)
  })

  it('reads the tree through the driver when it only checks, and changes nothing', async () => {
    const driver = createMemoryDriver({ 'events/meetup.en.md': MEETUP, 'events/fresh.en.md': FRESH })
    const { problems, fixed } = await checkContent(driver, false)
    expect(fixed).toEqual([])
    expect(problems.map((p) => p.path)).toContain('events/fresh.en.md')
    expect(driver.peek('events/meetup.en.md')).toBe(MEETUP)
  })
})
