import { isSeries } from '../content/model/record-types.ts'
import { readRecurrence } from '../content/model/recurrence.ts'
import type { ContentRecord } from '../content/store.ts'
import { instantToWall } from '../time/zone.ts'
import { eventTimes } from '../content/model/derive.ts'
import { servedLang } from './record.ts'
import { recordRestUrl } from './urls.ts'
import type { View } from './view.ts'

// Almanac's fields for recurring events, after `lang` and `translations` (docs/compatibility.md): a
// series shows its rule and its next occurrences; an occurrence names its series.

/** How many upcoming occurrences a series' `recurrence.next` lists. */
export const NEXT_SHOWN = 5

const DAY = 86_400_000

/** The UTC day a series' answer holds for (its `next` starts at that day): part of its memo key. */
export function seriesDay(record: ContentRecord, view: Pick<View, 'now'>): string {
  return isSeries(record) ? `|${Math.floor(view.now / DAY)}` : ''
}

/** `recurrence` for a series, `series` for an occurrence, nothing for any other event. */
export function seriesFields(record: ContentRecord, view: View): Record<string, unknown> {
  if (record.series) {
    const parent = record.series.parent
    return {
      series: {
        id: parent.id,
        rest_url: recordRestUrl(view.site, `events/${parent.id}`, servedLang(parent, view)),
        start_date: record.series.start,
      },
    }
  }
  if (!isSeries(record)) return {}
  const { recurrence } = readRecurrence(record.source.data.recurrence as Record<string, unknown>)
  const from = view.now - (view.now % DAY)
  // In the order they happen: an override may move an occurrence past others.
  const next = view.store
    .occurrencesOf(record)
    .filter((occurrence) => eventTimes(occurrence, view.site.timezone).end >= from)
    .sort((a, b) => eventTimes(a, view.site.timezone).start - eventTimes(b, view.site.timezone).start || a.id - b.id)
    .slice(0, NEXT_SHOWN)
    .map((occurrence) => {
      const times = eventTimes(occurrence, view.site.timezone)
      return {
        id: occurrence.id,
        start_date: times.startWall,
        end_date: times.endWall,
        utc_start_date: instantToWall(times.start, 'UTC'),
        rest_url: recordRestUrl(view.site, `events/${occurrence.id}`, servedLang(occurrence, view)),
      }
    })
  return {
    recurrence: {
      rrule: recurrence.rrule ?? '',
      rdate: recurrence.rdate,
      exdate: recurrence.exdate,
      count: view.store.occurrencesOf(record).length,
      next,
    },
  }
}
