import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { as, call, json, writableApp, buildOptions } from '../helpers.ts'

const VENUE = `---
id: 4
venue: 'Town Hall'
slug: town-hall
status: publish
date: 2026-11-22 02:08:30
author: 1
# where it is
address: "1 Main Street"
city: Springfield
country: United States
state: IL
zip: "038981"
phone: '+1 555 0100'   # front desk
website: http://example.com/town-hall
show_map: true
show_map_link: true
---
The old town hall
`

const EVENT = `---
id: 7
title: Summer Concert
slug: summer-concert
status: publish
date: 2026-11-22 02:08:31
author: 1
start_date: "2026-11-25 19:00:00"
end_date: '2026-11-25 22:30:00'
timezone: America/Chicago
venue: 4
organizer: [ 5 ]
categories:
  - 2
tags: [3]   # outdoor
cost: "15"
excerpt: >-
  Live music
  in the hall
featured: true   # on the front page
custom: {a: 1, b: [x, y]}
---
An evening of **live** music.
`

let app: Awaited<ReturnType<typeof writableApp>>
const file = (name: string) => join(app.content, name)
/** Puts a file in the tree as an editor would, and has the store read it. */
async function edit(name: string, text: string) {
  await writeFile(file(name), text)
  await app.store.reload([name])
  // An unknown key (`custom:`) is a warning: the file still loads, and a write keeps the key.
  expect(app.store.problems().filter((p) => p.severity !== 'warning')).toEqual([])
}
/** The file without the `modified:` line a write adds. */
const withoutModified = (text: string) =>
  text
    .split(/(?<=\n)/)
    .filter((line) => !line.startsWith('modified: '))
    .join('')

beforeEach(async () => {
  app = await writableApp('reference')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

describe('a write to a file an editor wrote', () => {
  it('leaves every value it did not change byte for byte as written: quotes, comments, styles', async () => {
    await edit('venues/town-hall.en.md', VENUE)
    const response = await call(app, 'venues/4', json('POST', { city: 'Shelbyville' }, as('admin')))
    expect(response.status).toBe(200)
    const after = await readFile(file('venues/town-hall.en.md'), 'utf8')
    expect(withoutModified(after)).toBe(VENUE.replace('city: Springfield', 'city: Shelbyville'))
    expect(after).toMatch(/\ndate: 2026-11-22 02:08:30\nmodified: [0-9: -]+\nauthor: 1\n/)
  })

  it('keeps flow and block lists, folded text, comments and unknown keys of an event', async () => {
    await edit('events/summer-concert.en.md', EVENT)
    const response = await call(
      app,
      'events/7',
      json('POST', { title: 'Winter Concert', description: 'Now in winter.' }, as('admin')),
    )
    expect(response.status).toBe(200)
    const after = await readFile(file('events/summer-concert.en.md'), 'utf8')
    expect(withoutModified(after)).toBe(
      EVENT.replace('title: Summer Concert', 'title: Winter Concert').replace(
        'An evening of **live** music.',
        'Now in winter.',
      ),
    )
  })

  it('keeps the line endings of a file written on Windows', async () => {
    await edit('venues/town-hall.en.md', VENUE.replace(/\n/g, '\r\n'))
    expect((await call(app, 'venues/4', json('POST', { city: 'Shelbyville' }, as('admin')))).status).toBe(200)
    const after = await readFile(file('venues/town-hall.en.md'), 'utf8')
    expect(withoutModified(after)).toBe(VENUE.replace('city: Springfield', 'city: Shelbyville').replace(/\n/g, '\r\n'))
  })

  it('rewrites only the values it changed, and a removed value goes with its line', async () => {
    await edit('venues/town-hall.en.md', VENUE)
    expect((await call(app, 'venues/4', json('POST', { phone: '', zip: '038982' }, as('admin')))).status).toBe(200)
    const after = withoutModified(await readFile(file('venues/town-hall.en.md'), 'utf8'))
    expect(after).not.toContain('phone')
    expect(after.replace(/zip: .*\n/, '')).toBe(VENUE.replace(/(phone|zip): .*\n/g, ''))
    expect((await call(app, 'venues/4')).body.zip).toBe('038982')
  })
})

describe('a zip code written with leading zeros', () => {
  it('is the text the editor wrote, quoted or not, in every answer and in the build', async () => {
    await edit('venues/town-hall.en.md', VENUE.replace('zip: "038981"', 'zip: 012345'))
    expect((await call(app, 'venues/4')).body.zip).toBe('012345')
    expect((await call(app, 'venues')).body.venues[0].zip).toBe('012345')
    const event = (await call(app, 'events/7')).body
    expect(event.venue.zip).toBe('012345')
    expect(JSON.stringify(event)).not.toMatch(/5349/)
    const out = await mkdtemp(join(tmpdir(), 'almanac-zip-'))
    try {
      await buildSite(buildOptions(app.store, out))
      const built = JSON.parse(
        await readFile(join(out, 'wp-json/calendar/events/v1/venues/4.json'), 'utf8').catch(() =>
          readFile(join(out, 'wp-json/calendar/events/v1/venues/4/index.json'), 'utf8'),
        ),
      )
      expect(built.zip).toBe('012345')
    } finally {
      await rm(out, { recursive: true, force: true })
    }
  })

  it('stays as written after the server writes another field', async () => {
    await edit('venues/town-hall.en.md', VENUE.replace('zip: "038981"', 'zip: 012345'))
    expect((await call(app, 'venues/4', json('POST', { city: 'Shelbyville' }, as('admin')))).status).toBe(200)
    expect(await readFile(file('venues/town-hall.en.md'), 'utf8')).toContain('\nzip: 012345\n')
    expect((await call(app, 'venues/4')).body.zip).toBe('012345')
  })
})
