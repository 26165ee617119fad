import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { instantToWall, isWallClock, wallToInstant } from '../../src/time/zone.ts'
import { call, testApp } from '../helpers.ts'
import { loadStore, tempTree } from './trees.ts'

const event = (id: number, start: string, end: string, zone = 'UTC') =>
  `---\nid: ${id}\ntitle: Ancient ${id}\nslug: ancient-${id}\nstatus: publish\nstart_date: ${start}\nend_date: ${end}\ntimezone: ${zone}\n---\n`

let tree: Awaited<ReturnType<typeof tempTree>>
beforeEach(async () => {
  tree = await tempTree()
})
afterEach(async () => {
  await tree.cleanup()
})

describe('content dates in the years 0000 to 0099', () => {
  it('are those years, not 1900 to 1999', () => {
    expect(instantToWall(wallToInstant('0050-06-01 10:00:00', 'UTC'), 'UTC')).toBe('0050-06-01 10:00:00')
    expect(instantToWall(wallToInstant('0099-12-31 23:59:59', 'Asia/Singapore'), 'Asia/Singapore')).toBe(
      '0099-12-31 23:59:59',
    )
    expect(new Date(wallToInstant('0001-01-01 00:00:00', 'UTC')).getUTCFullYear()).toBe(1)
    // Year 0 is a leap year in the proleptic Gregorian calendar; 1900 is not.
    expect(isWallClock('0000-02-29 12:00:00')).toBe(true)
    expect(isWallClock('0100-02-29 12:00:00')).toBe(false)
  })

  it('are served as written, in local and UTC dates', async () => {
    await writeFile(
      join(tree.content, 'events/ancient-1.en.md'),
      event(901, '0050-06-01 10:00:00', '0050-06-01 12:00:00'),
    )
    await writeFile(
      join(tree.content, 'events/ancient-2.en.md'),
      event(902, '0000-02-29 10:00:00', '0000-02-29 11:00:00'),
    )
    const { store, problems } = await loadStore(tree.content)
    expect(problems).toEqual([])
    const app = testApp(store)
    const first = (await call(app, 'events/901')).body
    expect(first).toMatchObject({
      start_date: '0050-06-01 10:00:00',
      utc_start_date: '0050-06-01 10:00:00',
      utc_end_date: '0050-06-01 12:00:00',
    })
    expect(first.start_date_details).toMatchObject({ year: '0050', month: '06', day: '01' })
    expect((await call(app, 'events/902')).body).toMatchObject({
      start_date: '0000-02-29 10:00:00',
      utc_start_date: '0000-02-29 10:00:00',
    })
  })
})
