import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { createStore } from '../../src/content/store.ts'
import { almanac, tempTree } from './trees.ts'

// `almanac check` on series: every problem of a rule, its dates and its overrides is named with the
// line of the very key or list item it is about. The clock is pinned (24 November 2026): open-ended
// rules are served up to the first day of the 26th month ahead, 2029-01-01.

const NOW = () => Date.UTC(2026, 10, 24, 12)

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** The series fixture with these event files added (path under events/ → lines of the file). */
async function seriesTree(files: Record<string, string[]>) {
  const tree = await tempTree('series')
  cleanups.push(tree.cleanup)
  for (const [name, lines] of Object.entries(files))
    await writeFile(join(tree.content, 'events', name), `${lines.join('\n')}\n`)
  return tree
}

/** The problems of one file, as `line severity message`, in line order (the files here have no slug: not told). */
async function problemsOf(content: string, file: string): Promise<string[]> {
  const { problems } = await checkContent(content, false, 'UTC', NOW)
  return problems
    .filter((p) => p.path === `events/${file}` && !p.message.startsWith('slug is not set'))
    .sort((a, b) => (a.line ?? 1) - (b.line ?? 1))
    .map((p) => `${p.line} ${p.severity ?? 'error'} ${p.message}`)
}

const head = (id: number, title: string) => [
  '---',
  `id: ${id}`,
  `title: ${title}`,
  'date: 2026-08-01 09:00:00',
  'start_date: 2027-01-05 19:00:00',
  'end_date: 2027-01-05 20:30:00',
  'timezone: Asia/Singapore',
]

describe('almanac check on a series', () => {
  it('reports an invalid rule as an error on the rrule line, and the record is not served', async () => {
    const tree = await seriesTree({
      'every-second.en.md': [...head(50, 'Every Second'), 'recurrence:', '  rrule: FREQ=SECONDLY', '---'],
      'both-ends.en.md': [
        ...head(51, 'Both Ends'),
        'recurrence:',
        '  rrule: FREQ=WEEKLY;COUNT=3;UNTIL=20270301',
        '---',
      ],
      'bad-rdate.en.md': [
        ...head(52, 'Bad Rdate'),
        'recurrence:',
        '  rrule: FREQ=WEEKLY;COUNT=4',
        '  rdate:',
        '    - 2027-03-01',
        '    - 2027-02-30',
        '---',
      ],
    })
    expect(await problemsOf(tree.content, 'every-second.en.md')).toEqual([
      '9 error recurrence.rrule: occurrences are at least a minute apart; SECONDLY and BYSECOND are not taken in "FREQ=SECONDLY"',
    ])
    expect(await problemsOf(tree.content, 'both-ends.en.md')).toEqual([
      '9 error recurrence.rrule: COUNT and UNTIL cannot both be given in "FREQ=WEEKLY;COUNT=3;UNTIL=20270301"',
    ])
    expect(await problemsOf(tree.content, 'bad-rdate.en.md')).toEqual([
      '12 error recurrence.rdate: "2027-02-30" is not a real date (YYYY-MM-DD) or date and time',
    ])
    const store = await createStore(tree.content, { defaultLanguage: 'en', fallback: true, now: NOW })
    expect([50, 51, 52].map((id) => store.get('events', id))).toEqual([undefined, undefined, undefined])
    expect(store.get('events', 30)).toBeDefined()
  })

  it('warns about exclusions and overrides that match no occurrence, each on its own line', async () => {
    const tree = await seriesTree({
      'tuesday-talks.en.md': [
        ...head(53, 'Tuesday Talks'),
        'recurrence:',
        '  rrule: FREQ=WEEKLY;BYDAY=TU;COUNT=8',
        '  exdate:',
        '    - 2027-01-12',
        '    - 2027-01-13',
        '    - 2027-01-19 19:00:00',
        'overrides:',
        '  2027-01-26:',
        '    title: Talk in the garden',
        '  2027-01-27:',
        '    title: Nobody comes',
        '---',
      ],
      'tuesday-talks.ms.md': [
        '---',
        'title: Ceramah Selasa',
        'overrides:',
        '  2027-02-02:',
        '    title: Ceramah di taman',
        '  2027-06-01:',
        '    title: Tiada',
        '---',
      ],
    })
    expect(await problemsOf(tree.content, 'tuesday-talks.en.md')).toEqual([
      '1 warning no translation in zh-hans, ta',
      '12 warning recurrence.exdate: 2027-01-13 excludes no occurrence',
      '17 warning overrides: 2027-01-27 changes no occurrence',
    ])
    expect(await problemsOf(tree.content, 'tuesday-talks.ms.md')).toEqual([
      '6 warning overrides: 2027-06-01 changes no occurrence',
    ])
  })

  it('warns on the rrule line that an open-ended rule is served up to the horizon, and when it is cut at 1,000', async () => {
    const tree = await seriesTree({
      'twice-daily.en.md': [...head(54, 'Twice Daily'), 'recurrence:', '  rrule: FREQ=DAILY;BYHOUR=7,19', '---'],
    })
    expect(await problemsOf(tree.content, 'twice-daily.en.md')).toEqual([
      '9 warning recurrence.rrule: open-ended; occurrences are served up to 2029-01-01, and further as time goes on',
      '9 warning recurrence.rrule: more than 1000 occurrences; only the 1000 latest are served',
    ])
    // The yoga of the fixture is open-ended too: its warning moves with the clock it is checked at.
    const later = await checkContent(tree.content, false, 'UTC', () => Date.UTC(2027, 4, 2))
    const yoga = later.problems.filter((p) => p.path === 'events/yoga.en.md' && p.message.startsWith('recurrence'))
    expect(yoga.map((p) => `${p.line} ${p.message}`)).toEqual([
      '12 recurrence.rrule: open-ended; occurrences are served up to 2029-07-01, and further as time goes on',
    ])
  })

  it('refuses an override of a field no occurrence may change, or of a date that does not exist, on that line', async () => {
    const tree = await seriesTree({
      'odd-overrides.en.md': [
        ...head(55, 'Odd Overrides'),
        'recurrence:',
        '  rrule: FREQ=WEEKLY;COUNT=4',
        'overrides:',
        '  2027-01-12:',
        '    title: Fine',
        '    status: draft',
        '  2027-02-30:',
        '    title: No such day',
        '  2027-01-19:',
        '    start_date: 2027-01-19 25:00:00',
        '---',
      ],
    })
    expect(await problemsOf(tree.content, 'odd-overrides.en.md')).toEqual([
      '13 error overrides."2027-01-12".status: not a field of an event',
      '14 error overrides: 2027-02-30 is not a real date or time',
      '17 error overrides: 2027-01-19: start_date "2027-01-19 25:00:00" is not a real date and time',
    ])
  })

  it('refuses a translation that overrides a field translations do not hold; the source is still served', async () => {
    const tree = await seriesTree({
      'yoga.zh-hans.md': [
        '---',
        'title: 周二瑜伽',
        'overrides:',
        '  2026-12-22:',
        '    title: 圣诞瑜伽',
        '    venue: 11',
        '---',
      ],
    })
    expect(await problemsOf(tree.content, 'yoga.zh-hans.md')).toEqual([
      '6 error overrides."2026-12-22".venue: not a field of a translation of an event',
    ])
    const store = await createStore(tree.content, { defaultLanguage: 'en', fallback: true, now: NOW })
    expect([...store.get('events', 30)!.files.keys()].sort()).toEqual(['en', 'ms'])
  })
})

describe('the warnings of a series as time goes on', () => {
  it('name the horizon it is served to now, never a past one, once the horizon moved', async () => {
    const tree = await seriesTree({})
    let now = NOW()
    const store = await createStore(tree.content, { defaultLanguage: 'en', fallback: true, now: () => now })
    now = Date.UTC(2026, 11, 2)
    expect(await store.moveHorizon()).toBe(true)
    const openEnded = store.problems().filter((p) => p.message.includes('open-ended'))
    expect(openEnded.map((p) => `${p.path}:${p.line} ${p.message}`)).toEqual([
      'events/yoga.en.md:12 recurrence.rrule: open-ended; occurrences are served up to 2029-02-01, and further as time goes on',
    ])
  })
})

describe('almanac check (the command) on series', () => {
  it('exits 0 when a series has only warnings, and prints them with their lines in every format', async () => {
    const tree = await seriesTree({})
    const text = await almanac(['check'], tree.dir)
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(
      /^content\/events\/yoga\.en\.md:12: warning: recurrence\.rrule: open-ended; occurrences are served up to \d{4}-\d\d-01, and further as time goes on$/m,
    )
    expect(text.stderr).toMatch(/^0 errors, \d+ warnings$/m)
    const github = await almanac(['check', '--format', 'github'], tree.dir)
    expect(github.code).toBe(0)
    expect(github.stdout).toMatch(
      /^::warning file=content\/events\/yoga\.en\.md,line=12::recurrence\.rrule: open-ended;/m,
    )
  })

  it('exits 1 once a rule is invalid, naming the file and the line', async () => {
    const tree = await seriesTree({
      'every-second.en.md': [...head(50, 'Every Second'), 'recurrence:', '  rrule: FREQ=SECONDLY', '---'],
    })
    const github = await almanac(['check', '--format', 'github'], tree.dir)
    expect(github.code).toBe(1)
    expect(github.stdout).toContain(
      '::error file=content/events/every-second.en.md,line=9::recurrence.rrule: occurrences are at least a minute apart; SECONDLY and BYSECOND are not taken in "FREQ=SECONDLY"\n',
    )
    const json = await almanac(['check', '--format', 'json'], tree.dir)
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toContainEqual({
      file: 'content/events/every-second.en.md',
      line: 9,
      severity: 'error',
      message:
        'recurrence.rrule: occurrences are at least a minute apart; SECONDLY and BYSECOND are not taken in "FREQ=SECONDLY"',
    })
  })
})
