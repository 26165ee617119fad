import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, writableApp } from '../helpers.ts'

// Event 7 is at venue 4 (town-hall) with organizer 5. The venue gets a password of its own here.
const VENUE = 'venues/town-hall.en.md'
let app: Awaited<ReturnType<typeof writableApp>>

beforeAll(async () => {
  app = await writableApp('reference')
  const path = join(app.content, VENUE)
  await writeFile(path, (await readFile(path, 'utf8')).replace(/^id: 4$/m, 'id: 4\npassword: vpw'))
  await app.store.reload([VENUE])
})
afterAll(() => rm(app.dir, { recursive: true, force: true }))

const venueOf = (event: { venue: { address?: string } }) => event.venue.address
const inList = async (query = '') =>
  (await call(app, `events${query}`)).body.events.find((event: { id: number }) => event.id === 7)

describe('answers kept for reuse', () => {
  it('never give a request without a password what a password opened for another', async () => {
    expect(venueOf(await inList())).toBe('')
    expect(venueOf((await call(app, 'events/7?password=vpw')).body)).toBe('1 Main Street')
    expect(venueOf(await inList())).toBe('')
    expect(venueOf(await inList('?password=vpw'))).toBe('1 Main Street')
    expect(venueOf(await inList())).toBe('')
    expect(venueOf((await call(app, 'events/7')).body)).toBe('')
  })
})
