import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LeakTree } from '../routes/leak-tree.ts'

// What the fresh-app properties add to the leak tree (test/routes/leak-tree.ts): series (one open-ended), Chinese and
// Malay text, an all-day event, an event across local midnight, a child category.

/** Ids of the records added to the leak tree. */
export const SERIES = 900
export const OPEN_SERIES = 901
export const LANTERN = 902
export const ALL_DAY = 903
export const LATE = 904
export const JAZZ = 6
/** Occurrence ids: series id × 10^9 + minutes since 1970 of the original start (docs/architecture.md §2). */
export const occurrence = (series: number, utc: string) => series * 1e9 + Date.parse(utc) / 60_000
export const OCCURRENCES = [
  occurrence(SERIES, '2026-12-08T19:00:00Z'),
  occurrence(SERIES, '2026-12-15T19:00:00Z'),
  occurrence(OPEN_SERIES, '2026-12-10T15:30:00Z'),
]

export const file = (data: Record<string, unknown>, body: string) =>
  `---\n${Object.entries(data)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n')}\n---\n${body}\n`

/** Records the leak tree has none of: series (one open-ended), Chinese and Malay text, an all-day event, a child category. */
export async function addRecords(t: LeakTree): Promise<void> {
  const content = join(t.dir, 'content')
  const put = (path: string, text: string) => writeFile(join(content, path), text)
  const venue = t.venues[0]!
  const organizer = t.organizers[0]!
  const common = { status: 'publish', date: '2026-11-01 10:00:00', author: 2 }
  await put('categories/c-jazz.en.md', file({ id: JAZZ, name: 'Jazz', slug: 'jazz', parent: 1 }, 'Jazz nights'))
  await put('categories/c-jazz.ms.md', file({ name: 'Jaz', slug: 'jaz' }, 'Malam jaz'))
  await put(
    'events/weekly-melodi.en.md',
    `---\n${[
      `id: ${SERIES}`,
      'title: "Weekly Melodi Night"',
      'slug: weekly-melodi-night',
      'status: publish',
      'date: 2026-11-01 10:00:00',
      'author: 2',
      'start_date: 2026-11-03 19:00:00',
      'end_date: 2026-11-03 21:00:00',
      'timezone: UTC',
      `venue: [${venue}]`,
      `organizer: [${organizer}]`,
      `categories: [${JAZZ}]`,
      'tags: [4]',
      'recurrence:',
      '  rrule: FREQ=WEEKLY;BYDAY=TU;COUNT=12',
      '  exdate: [2026-12-22]',
      'overrides:',
      '  2026-12-15:',
      '    title: "Melodi Night, moved"',
      '    start_date: 2026-12-16 19:00:00',
      '    end_date: 2026-12-16 21:00:00',
    ].join('\n')}\n---\nMusic every Tuesday: melodi, lagu and jazz.\n`,
  )
  await put(
    'events/weekly-melodi.ms.md',
    file({ title: 'Malam Melodi Mingguan', slug: 'malam-melodi-mingguan' }, 'Muzik setiap Selasa, lagu merdu.'),
  )
  await put(
    'events/every-third-night.en.md',
    `---\n${[
      `id: ${OPEN_SERIES}`,
      'title: "Every Third Night Market"',
      'slug: every-third-night-market',
      'status: publish',
      'date: 2026-11-01 10:00:00',
      'author: 3',
      'start_date: 2026-11-30 23:30:00',
      'end_date: 2026-12-01 01:00:00',
      'timezone: Asia/Kuala_Lumpur',
      'categories: [2]',
      'recurrence:',
      '  rrule: FREQ=DAILY;INTERVAL=3',
    ].join('\n')}\n---\nA pasar malam past midnight, every third night.\n`,
  )
  await put(
    'events/lantern.en.md',
    file(
      {
        id: LANTERN,
        title: 'Lantern Concert',
        slug: 'lantern-concert',
        ...common,
        start_date: '2026-12-12 20:00:00',
        end_date: '2026-12-12 22:00:00',
        timezone: 'Asia/Kuala_Lumpur',
        venue: [venue],
        categories: [1, JAZZ],
        featured: true,
      },
      'Lanterns and music in the park.',
    ),
  )
  await put(
    'events/lantern.zh-hans.md',
    file({ title: '灯笼音乐会', slug: '灯笼音乐会' }, '在公园里举行的灯笼音乐会。'),
  )
  await put(
    'events/lantern.ms.md',
    file({ title: 'Konsert Tanglung', slug: 'konsert-tanglung' }, 'Tanglung dan muzik.'),
  )
  await put(
    'events/all-day.en.md',
    file(
      {
        id: ALL_DAY,
        title: 'All Day Fair',
        slug: 'all-day-fair',
        ...common,
        start_date: '2026-12-11 00:00:00',
        end_date: '2026-12-11 23:59:59',
        all_day: true,
        timezone: 'Asia/Kuala_Lumpur',
        tags: [5],
      },
      'A *fair* all day long.',
    ),
  )
  await put(
    'events/late.en.md',
    file(
      {
        id: LATE,
        title: 'Late Show',
        slug: 'late-show',
        ...common,
        start_date: '2026-12-10 23:30:00',
        end_date: '2026-12-11 01:00:00',
        timezone: 'Asia/Kuala_Lumpur',
        categories: [3],
        organizer: [organizer],
      },
      'A show across local midnight.',
    ),
  )
  t.events.push(SERIES, OPEN_SERIES, LANTERN, ALL_DAY, LATE)
  t.categories.push(JAZZ)
  t.slugs.push(
    { kind: 'events', slug: 'weekly-melodi-night' },
    { kind: 'events', slug: 'lantern-concert' },
    { kind: 'events', slug: 'late-show' },
  )
}
