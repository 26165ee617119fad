import type { Span } from './plain-keys.ts'

// The instants of a feed each zone's VTIMEZONE must describe (time-zones.ts), as windows: the union of what its
// VEVENTs use, close windows joined. The result depends only on which spans the VEVENTs use, not on their order.

/** How a VEVENT uses its span: `whole` for a series (clients expand its rule over all of it, up to `until`), `ends` for a VEVENT of its own dates (a client reads the zone at its start and end only). */
export interface SpanUse {
  span: Span
  part: 'whole' | 'ends'
  until?: number
}

/**
 * Windows closer than this are described as one: a gap costs its changes, and a window's start its own observance.
 * Far apart (a stranger's event dated in year 1), each is described alone, so a feed's zones cost what its events
 * need, not the years between them.
 */
const WINDOW_GAP = 366 * 86_400_000

/**
 * Each zone's windows as they are widened: most events share the site's zone and lie close together, so a window is
 * usually widened in place (the last zone's last window is at hand).
 */
export interface Spans {
  byZone: Map<string, [number, number][]>
  zone?: string
  windows?: [number, number][]
}

/** Adds a VEVENT's instants to its zone's windows. */
export function widen(spans: Spans, span: Span, part: SpanUse['part'], until?: number): void {
  if (!span) return
  const [zone, start, end] = span
  let windows = zone === spans.zone ? spans.windows : spans.byZone.get(zone)
  if (!windows) spans.byZone.set(zone, (windows = []))
  const last = Math.max(end, until ?? end)
  if (part === 'whole' || last - start <= WINDOW_GAP) place(windows, start, last)
  else {
    place(windows, start, start)
    place(windows, last, last)
  }
  spans.zone = zone
  spans.windows = windows
}

/** Whether two spans name the same zone and instants. */
export function sameSpan(a: Span, b: Span): boolean {
  return a === b || (a !== null && b !== null && a[0] === b[0] && a[1] === b[1] && a[2] === b[2])
}

/** Widens the last window to [from, to] when they are close, else adds a window (`merged` sorts them at the end). */
function place(windows: [number, number][], from: number, to: number): void {
  const last = windows.at(-1)
  if (last && from <= last[1] + WINDOW_GAP && to >= last[0] - WINDOW_GAP) {
    last[0] = Math.min(last[0], from)
    last[1] = Math.max(last[1], to)
  } else windows.push([from, to])
}

/** The windows in order, those closer than WINDOW_GAP joined. */
export function merged(windows: [number, number][]): [number, number][] {
  const joined: [number, number][] = []
  for (const [from, to] of [...windows].sort((a, b) => a[0] - b[0])) {
    const last = joined.at(-1)
    if (last && from <= last[1] + WINDOW_GAP) last[1] = Math.max(last[1], to)
    else joined.push([from, to])
  }
  return joined
}
