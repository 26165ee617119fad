import type { ICalDayJsStub } from 'ical-generator'
import { instantToWall } from '../../time/zone.ts'

// A date for ical-generator: its Day.js-shaped interface (ICalDayJsStub), answered from the wall clocks Almanac
// already computed for the JSON, so a feed of 10,000 events converts no date through Intl again. `tz` gives the
// wall clock in a zone (DTSTART;TZID=…), `utc` in UTC (DTSTAMP…Z), and an all-day date stays its date.

/** An instant and its wall clock in one zone; or, for all-day events, a date alone. */
export class WallTime implements ICalDayJsStub {
  private constructor(
    private readonly instant: number,
    /** `YYYY-MM-DD HH:MM:SS`, or `YYYY-MM-DD` for a date. */
    private readonly wall: string,
  ) {}

  /** An instant, shown in `zone` until `tz` or `utc` says otherwise. */
  static at(instant: number, zone = 'UTC'): WallTime {
    return new WallTime(instant, instantToWall(instant, zone))
  }

  /** A date (`YYYY-MM-DD`), written as a DATE value whatever the zone. */
  static date(date: string): WallTime {
    return new WallTime(Date.parse(`${date}T00:00:00Z`), date)
  }

  tz(zone?: string): WallTime {
    return this.wall.length === 10 || zone === undefined ? this : WallTime.at(this.instant, zone)
  }

  utc(): WallTime {
    return this.tz('UTC')
  }

  format(format?: string): string {
    if (format === 'YYYYMMDD') return this.wall.slice(0, 10).replaceAll('-', '')
    if (format === 'HHmmss') return this.wall.length === 10 ? '000000' : this.wall.slice(11).replaceAll(':', '')
    return this.toJSON()
  }

  isValid(): boolean {
    return Number.isFinite(this.instant)
  }

  toDate(): Date {
    return new Date(this.instant)
  }

  toJSON(): string {
    return new Date(this.instant).toISOString()
  }
}
