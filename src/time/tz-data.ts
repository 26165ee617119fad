import { IANAZone, Zone } from 'luxon'
import moment from 'moment-timezone'

// One copy of the tz database for everything Almanac does with a named zone: the offsets that turn wall clocks
// into instants, the abbreviations (`timezone_abbr`, a feed's TZNAME) and the changes a feed's VTIMEZONE lists all
// come from moment-timezone's data, pinned by the lockfile. ICU's copy (luxon's default) is the Node build's, older
// or newer than moment's: Node 20 ships 2025c, moment-timezone 0.6 ships 2026f, which moves Alberta to -06:00 for
// good in November 2026. Read from two copies, one answer named an offset its abbreviation contradicts, and the
// same tree served other instants under another Node (docs/compatibility.md §34).

/** A zone as moment-timezone ships it: periods in order, each in force until `untils[i]` (the last until Infinity). */
interface Periods {
  readonly name: string
  readonly untils: readonly number[]
  /** Minutes west of UTC (moment's sign), with fractions for local mean time. */
  readonly offsets: readonly number[]
  readonly abbrs: readonly string[]
}

const DAY = 86_400_000
/** 400 Gregorian years, to the day: weekdays, leap days and so every "second Sunday of March" repeat after it. */
const CYCLE = 146_097 * DAY
/** moment-timezone lists a zone's changes up to 2499; past the last, a zone that still changes keeps its rules. */
const LISTED_UNTIL = Date.UTC(2400, 0, 1)

/** The period in force at an instant: the first whose until is after it (as moment's own `_index`). */
function periodAt(zone: Periods, instant: number): number {
  const { untils } = zone
  const last = untils.length - 1
  // Past the listed changes of a zone that keeps changing: the same instant of the calendar 400 years earlier.
  if (last > 0 && instant >= untils[last - 1]! && untils[last - 1]! >= LISTED_UNTIL)
    instant -= Math.ceil((instant - untils[last - 1]! + 1) / CYCLE) * CYCLE
  let low = 0
  let high = last
  while (low < high) {
    const mid = (low + high) >>> 1
    if (instant < untils[mid]!) high = mid
    else low = mid + 1
  }
  return low
}

/** A named zone of the tz database, as luxon's DateTime reads zones, answering from moment-timezone's data. */
export class TzZone extends Zone {
  readonly #given: string
  readonly #periods: Periods

  constructor(given: string, periods: Periods) {
    super()
    this.#given = given
    this.#periods = periods
  }

  /** Not "iana": luxon would hand such a zone's name to Intl, which reads ICU's copy. */
  override get type(): string {
    return 'tzdata'
  }

  override get name(): string {
    return this.#given
  }

  get ianaName(): string {
    return this.#periods.name
  }

  override get isUniversal(): boolean {
    return false
  }

  override get isValid(): boolean {
    return true
  }

  /** The offset at an instant, in minutes east of UTC (luxon's sign); NaN for no instant. */
  override offset(instant: number): number {
    if (Number.isNaN(instant)) return Number.NaN
    return -this.#periods.offsets[periodAt(this.#periods, instant)]!
  }

  /** The tz database's abbreviation at an instant (`BST`, `+08`); '' where it has none. */
  abbreviation(instant: number): string {
    return this.#periods.abbrs[periodAt(this.#periods, instant)] ?? ''
  }

  override offsetName(instant: number): string {
    return this.abbreviation(instant)
  }

  override formatOffset(instant: number, format: 'narrow' | 'short' | 'techie'): string {
    const minutes = this.offset(instant)
    const sign = minutes < 0 ? '-' : '+'
    const hours = Math.floor(Math.abs(minutes) / 60)
    const rest = Math.floor(Math.abs(minutes) % 60)
    if (format === 'narrow') return `${sign}${hours}${rest ? `:${rest}` : ''}`
    const two = (n: number) => String(n).padStart(2, '0')
    return `${sign}${two(hours)}${format === 'techie' ? '' : ':'}${two(rest)}`
  }

  override equals(other: Zone): boolean {
    return other instanceof TzZone && other.#periods === this.#periods
  }
}

/**
 * The zone a tz database name names (any case, aliases too), from moment-timezone's data; null for a name that is
 * none. Which names are zones is ICU's answer, as before the data moved: moment-timezone also takes `europe_london`
 * (it folds case, `/` and `_`), and lacks a few old aliases ICU still knows (`US/Pacific-New`), read from ICU's data.
 */
export function tzZone(name: string): Zone | null {
  if (!IANAZone.isValidZone(name)) return null
  const periods = moment.tz.zone(name)
  return periods ? new TzZone(name, periods) : IANAZone.create(name)
}
