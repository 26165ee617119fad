import type { H3Event } from 'h3'
import { DATE_KEYS } from '../query/event-dates.ts'
import { isTrueWord, ownBytes, ownUtf8 } from '../text.ts'
import { isAbsoluteTime } from '../time/parse.ts'
import type { KeptAnswer, Wire } from './answer-cache.ts'
import { type Body, byteLengthOf } from './body-parts.ts'
import type { Routing } from './input.ts'
import { deliver, type Outgoing } from './respond.ts'
import type { RouteDef } from './route.ts'

// Which answers are kept, under what key, and for how long as the clock moves (docs/architecture.md §3).

/**
 * The key of a request whose answer may be kept: an anonymous GET or HEAD, by everything its answer depends on
 * besides the store and the clock: the path as routed (case and trailing slash normalized, the language
 * segment apart), the whole query string, and `Origin` (the CORS headers). Undefined for any other request.
 * A request naming a `password` is never kept (`mayKeep`), so no kept key has one in its query.
 */
export function reuseKey(event: H3Event): string | undefined {
  const method = event.req.method
  if (method !== 'GET' && method !== 'HEAD') return undefined
  const headers = event.req.headers
  if (headers.has('authorization')) return undefined
  const prefix = (event.context.almanac as Routing | undefined)?.prefix ?? ''
  const { pathname, search } = event.url
  return `${prefix} ${pathname}${search} ${headers.get('origin') ?? ''}`
}

/** What a handler was asked, as far as the clock goes. */
export interface Asked {
  query: Record<string, unknown>
  given: Set<string>
  params: Record<string, unknown>
}

/** The span of time [from, until) an answer holds for. */
export interface Life {
  from: number
  until: number
}

const ALWAYS: Life = { from: -Infinity, until: Infinity }
const DAY = 86_400_000

/**
 * How long an anonymous 200 of a route stays true as the clock moves on from `now` (the store aside), or
 * undefined when it should not be kept. Every answer that reads the clock is here (`test/http/clock-readers.test.ts`
 * lists the code that does):
 * - event lists: the default window ("yesterday 23:59" UTC to now + 24 months, day-aligned) moves with the UTC
 *   date, so until the next UTC midnight; a relative date argument (`now`, `+1 week`), or `strict_dates` with a
 *   default bound (read to the second), is not kept;
 * - venue and organizer lists with `only_with_upcoming` (events that have not started yet) are not kept;
 * - the API and namespace indexes (`gmt_offset`, the arguments' default dates to the second): until the next
 *   second.
 */
export function lifeOf(route: RouteDef, asked: Asked, now: number): Life | undefined {
  if (route.pattern === '') return { from: now - (now % 1000), until: now - (now % 1000) + 1000 }
  if (route.pattern === '/venues' || route.pattern === '/organizers')
    return asked.given.has('only_with_upcoming') ? undefined : ALWAYS
  // A feed's window starts 30 days before today when it names no start (src/query/feed.ts).
  if (route.pattern === '/events' || route.pattern.endsWith('\\.ics')) return eventListLife(asked, now)
  // A series' answer lists its next occurrences from today (src/serialize/series.ts): a single event holds a day.
  if (route.pattern.startsWith('/events/')) return untilMidnight(now)
  return ALWAYS
}

/** Whether a date argument is relative (`now`, `today`, `+1 week`): its meaning moves by the second or at a midnight. */
function namesRelativeDate({ query, given }: Pick<Asked, 'query' | 'given'>): boolean {
  return DATE_KEYS.some((key) => given.has(key) && !isAbsoluteTime(query[key]))
}

function eventListLife({ query, given, params }: Asked, now: number): Life | undefined {
  if (namesRelativeDate({ query, given })) return undefined
  if (given.has('start_date') && given.has('end_date')) return ALWAYS
  if (isTrueWord(params.strict_dates)) return undefined
  return untilMidnight(now)
}

/** From the last UTC midnight to the next. */
function untilMidnight(now: number): Life {
  const midnight = now - (((now % DAY) + DAY) % DAY)
  return { from: midnight, until: midnight + DAY }
}

/** An outgoing 200 as an answer to keep: its body as bytes, its headers frozen for sharing. */
export function keptAnswer(out: Outgoing, life: Life): KeptAnswer {
  // Bytes of its own: a slice of a shared slab would keep the slab, beyond what the cache counts.
  const body = ownBody(out.body)
  const notModified = { ...out.headers }
  delete notModified['Content-Type']
  const headers = Object.freeze({ ...out.headers })
  // Made when the front door first serves it: most answers of a varied mix never are. A method, not a getter: an
  // accessor made per object is kept in V8's old generation, with all it holds (docs/architecture.md §3).
  let wire: Wire | undefined
  // Serves by the front door since `since`: HOT_SERVES of them within HOT_MS make the answer hot.
  let since = Number.NEGATIVE_INFINITY
  let serves = 0
  const answer: KeptAnswer = {
    body,
    headers,
    notModified: Object.freeze(notModified),
    etag: out.etag!,
    // `answer.body`, not `body`: a closure over the parts would hold them after they are joined.
    wire: () => (wire ??= wireOf(headers, notModified, byteLengthOf(answer.body))),
    served: (now) => {
      if (answer.body instanceof Uint8Array) return answer.body
      // A clock that stepped back opens a new window too: serves are counted in the one they fall in.
      if (!(now >= since && now - since < HOT_MS)) {
        since = now
        serves = 0
      }
      if (++serves >= HOT_SERVES) answer.body = joinedOwn(answer.body)
      return answer.body
    },
    ...life,
  }
  return answer
}

/**
 * A kept answer the front door serves HOT_SERVES times within HOT_MS milliseconds is hot: its parts are joined, for
 * good. Each part cost Node a write of its own (and the socket a slot in its `writev`): joined, a kept list of 10
 * events took 13% fewer instructions a request, of ~30 events 23% (callgrind). Only hot answers are: the answer cache
 * counts a body's bytes once, and parts are the JSON memo's, so a joined answer holds its body twice over with the
 * memo's; and what a join saves is a few microseconds a serve, which counts only for an answer asked many times a
 * second. Joined at its second serve within a second, the bench's varied mix (3,000 paths cycled, each met every
 * ~0.7 s) joined every answer it kept.
 */
export const HOT_MS = 1_000
export const HOT_SERVES = 16

/** Parts joined into bytes of their own (a `Buffer.concat` of a short body would be a slice of Node's shared pool). */
function joinedOwn(parts: readonly Uint8Array[]): Uint8Array {
  const out = Buffer.allocUnsafeSlow(byteLengthOf(parts))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

/** A body in memory of its own: a text as bytes, bytes or each part copied only if it is a slice of a shared slab. */
function ownBody(body: Body): Uint8Array | readonly Uint8Array[] {
  if (typeof body === 'string') return ownUtf8(body)
  if (body instanceof Uint8Array) return ownBytes(body)
  return body.map(ownBytes)
}

/**
 * The header lists Node is handed for a kept answer, as srvx hands it a FastResponse's (names lower-cased, in the
 * object's order, then `content-length` when there is a body), so the front door writes the same bytes.
 */
function wireOf(headers: Record<string, string>, notModified: Record<string, string>, length: number): Wire {
  const list = (from: Record<string, string>) =>
    Object.entries(from).flatMap(([name, value]) => [name.toLowerCase(), value])
  return { ok: [...list(headers), 'content-length', String(length)], notModified: list(notModified) }
}

/** A kept answer to this request: its bytes as they are (no copy), 304 or HEAD as `send` would answer. */
export function deliverKept(event: H3Event, kept: KeptAnswer): Response {
  return deliver(event, { status: 200, headers: kept.headers, body: kept.body, etag: kept.etag }, kept.notModified)
}
