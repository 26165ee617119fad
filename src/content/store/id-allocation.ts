import type { Catalogue } from './catalogue.ts'
import type { ContentDriver } from './driver.ts'
import { idSpaceOf, type Kind } from '../model/kinds.ts'
import type { MediaLibrary } from './media.ts'
import { MAX_POST_ID } from '../schema/records.ts'
import { NoIdLeftError } from './errors.ts'

type Space = 'post' | 'term'

/** The highest id in use now in a space: a record's, or in the post space a media file's. */
export type InUse = (space: Space) => number

export const HIGH_WATER_FILE = '.ids.yaml'

/** The highest id of each space: an id above it is never given, so one a file holds (refused there) blocks none. */
const MAX_ID: Record<Space, number> = { post: MAX_POST_ID, term: Number.MAX_SAFE_INTEGER }

/**
 * The one home of ids in each space (posts: events, venues, organizers, media; terms: categories,
 * tags): the next one is above every id in use, every id ever seen or handed out, served or not, and
 * above the high-water mark of ids deleted for good, which `content/.ids.yaml` keeps, so no id is
 * ever handed out twice.
 */
export interface IdAllocation {
  /** Notes an id a file carries (a broken file keeps its id in its text: no other file may get it). */
  claim(kind: Kind, id: unknown): void
  /** The next free id, without taking it (asking twice gives the same id). */
  next(space: Space): number
  /**
   * Takes the next free id: it is not handed out again, even before a record carries it, nor when
   * the transaction that took it fails (that leaves a gap; ids are never reused anyway). Throws
   * NoIdLeftError when the next would pass the space's highest id (a file from anyone may hold that one).
   */
  reserve(space: Space): number
  /** Raises the high-water mark to a deleted record's id, and writes it down. */
  retire(kind: Kind, id: number): Promise<void>
  /** What puts the high-water mark (and its file) back as it is now. */
  checkpoint(): () => Promise<void>
}

export function createIdAllocation(driver: ContentDriver, inUse: InUse): IdAllocation {
  const highWater = readHighWater(driver)
  // The highest id any file read carries or any record was given, served or not, whatever else arrived
  // in the same batch.
  const claimed = { post: 0, term: 0 }
  const next = (space: Space) => Math.max(highWater[space], claimed[space], inUse(space)) + 1
  return {
    claim(kind, id) {
      const space = idSpaceOf(kind)
      if (typeof id === 'number' && Number.isSafeInteger(id) && id > claimed[space] && id <= MAX_ID[space])
        claimed[space] = id
    },
    next,
    reserve(space) {
      const id = next(space)
      if (id > MAX_ID[space]) throw new NoIdLeftError(space, id - 1, highWater[space] === MAX_ID[space])
      claimed[space] = id
      return id
    },
    async retire(kind, id) {
      const space = idSpaceOf(kind)
      if (id <= highWater[space]) return
      highWater[space] = id
      await driver.write(HIGH_WATER_FILE, highWaterText(highWater))
    },
    checkpoint() {
      const before = { ...highWater }
      const text = driver.peek(HIGH_WATER_FILE)
      return async () => {
        if (highWater.post === before.post && highWater.term === before.term) return
        Object.assign(highWater, before)
        await (text === null ? driver.remove(HIGH_WATER_FILE) : driver.write(HIGH_WATER_FILE, text)).catch(() => {})
      }
    },
  }
}

/** The highest id in use among a catalogue's records and, in the post space, the media files. */
export function highestInUse(catalogue: Catalogue, media: () => MediaLibrary): InUse {
  return (space) => {
    let inUse = catalogue.highestId(space)
    if (space === 'post')
      for (const file of media().all())
        if (file.id !== null && file.id > inUse && file.id <= MAX_POST_ID) inUse = file.id
    return inUse
  }
}

/**
 * The spaces content/.ids.yaml leaves no id in: its mark is the highest id there may be, so the API can create no
 * record there (409). A stranger's pull request can add such a file; `almanac check` says so.
 */
export function exhaustedMarks(driver: ContentDriver): Space[] {
  const highWater = readHighWater(driver)
  return (['post', 'term'] as const).filter((space) => highWater[space] === MAX_ID[space])
}

/** The highest ids ever used, from content/.ids.yaml (0 when there is none). */
function readHighWater(driver: ContentDriver): Record<Space, number> {
  const text = driver.peek(HIGH_WATER_FILE) ?? ''
  // A mark past a space's highest id names no id ever given (none is): a stranger's file holding one blocks nothing.
  const read = (space: Space) => {
    const mark = Number(new RegExp(`^${space}:\\s*(\\d+)`, 'm').exec(text)?.[1] ?? 0)
    return mark <= MAX_ID[space] ? mark : 0
  }
  return { post: read('post'), term: read('term') }
}

function highWaterText(highWater: Record<Space, number>): string {
  return `# Highest ids ever used; Almanac never hands them out again.\npost: ${highWater.post}\nterm: ${highWater.term}\n`
}
