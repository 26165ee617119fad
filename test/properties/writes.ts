import fc from 'fast-check'
import { USER_LIST, type User } from './harness.ts'
import {
  AVOID,
  canChange,
  canEditOthers,
  canEditPosts,
  canPublish,
  pick,
  postsOf,
  writtenStatus,
  type Lang,
  type Model,
  type PostKind,
  type PostRecord,
  type TermKind,
} from './model.ts'

/** What writes send: generated specs, the model's plan for them, and their request bodies. */

/** Names drawn from small pools, so that reuse by name and slug clashes happen often. */
export const NAMES = {
  events: ['Night Market', 'Jazz Night', 'Summer Concert'],
  venues: ['Town Hall', 'River Hall', 'town hall'],
  organizers: ['Acme Events', 'River Arts'],
  categories: ['Music', 'Jazz', 'Food'],
  tags: ['Outdoor', 'Free', 'Family'],
}

/** Who asks: one of the users, or anonymous (the last index). */
export const who = fc.integer({ min: 0, max: USER_LIST.length })
export const userOf = (n: number): User | null => USER_LIST[n] ?? null
export const lang = fc.constantFrom<Lang>('en', 'en', 'ms', 'zh-hans')
/** A write's spec as a person reads it: logins instead of indexes. */
export function shown(spec: WriteSpec): string {
  const { who: w, author, ...rest } = spec
  const other = author && author !== 'self' ? USER_LIST[author.other % USER_LIST.length]!.login : author
  return `by ${userOf(w)?.login ?? 'anonymous'} ${JSON.stringify({ ...rest, ...(other ? { author: other } : {}) })}`
}
export const login = (n: number) => userOf(n)?.login ?? 'anonymous'
export const withLang = (path: string, l: Lang) =>
  l === 'en' ? path : `${path}${path.includes('?') ? '&' : '?'}ml_language=${l}`

/** A reference to a linked record: an existing one (by a pick), or an inline new one by name. */
export type LinkSpec = { ref: number } | { inline: number }

export interface WriteSpec {
  who: number
  lang: Lang
  status?: 'publish' | 'draft' | 'pending' | 'private'
  /** `self`, or another user (by index): only editors may name another author (issue 10). */
  author?: { other: number } | 'self'
  venue?: LinkSpec | 'clear'
  organizer?: LinkSpec[]
  categories?: (string | { ref: number })[]
  tags?: (string | { ref: number })[]
  /** An event whose end is before its start: 400, and nothing written (docs/compatibility.md §7; issue 10 all-or-nothing). */
  badDates?: boolean
  /** Events: set (or with '' clear) a password; a locked event is read only with it. */
  password?: 'Secret-1' | ''
  /** Events: a publication date in the future, sent with a status: `publish` becomes `future`. */
  future?: boolean
}

const link = fc.oneof(fc.record({ ref: fc.nat() }), fc.record({ inline: fc.nat() }))
const termRefs = (kind: TermKind) =>
  fc.array(fc.oneof(fc.constantFrom(...NAMES[kind]), fc.record({ ref: fc.nat() })), { maxLength: 2 })

export const writeSpec = (kind: PostKind, creating: boolean) => avoiding(kind, creating)

const avoiding = (kind: PostKind, creating: boolean) =>
  spec(kind, creating).map((s) => {
    if (AVOID.has('author')) delete s.author
    if (AVOID.has('private') && s.status === 'private') delete s.status
    if (AVOID.has('rollback')) delete s.badDates
    if (AVOID.has('password')) delete s.password
    if (s.future && s.status === undefined) s.status = 'publish'
    // A password-protected event answers blanked: its links cannot be read back, so none are sent with one.
    if (s.password) for (const field of ['venue', 'organizer', 'categories', 'tags'] as const) delete s[field]
    if (AVOID.has('inline')) {
      if (s.venue && s.venue !== 'clear' && 'inline' in s.venue) delete s.venue
      if (s.organizer) s.organizer = s.organizer.filter((l) => !('inline' in l))
    }
    return s
  })

const spec = (kind: PostKind, creating: boolean) =>
  fc.record(
    {
      who,
      lang,
      status: fc.constantFrom('publish', 'draft', 'pending', 'private'),
      author: fc.oneof(fc.constant('self' as const), fc.record({ other: fc.nat() })),
      ...(kind === 'events'
        ? {
            venue: creating ? link : fc.oneof(link, fc.constant('clear' as const)),
            organizer: fc.array(link, { maxLength: 2 }),
            categories: termRefs('categories'),
            tags: termRefs('tags'),
            badDates: fc.boolean(),
            password: fc.constantFrom('Secret-1' as const, '' as const),
            future: fc.boolean(),
          }
        : {}),
    },
    { requiredKeys: ['who', 'lang'] },
  ) as fc.Arbitrary<WriteSpec>

const DATES = ['2027-01-14', '2027-03-02', '2027-06-20']

/** What a write expects before it is sent: a refusal (status codes) or success. */
export type Plan = { refuse: number[] } | { ok: true; status: string | undefined; owner: number }

export function plan(_model: Model, u: User | null, spec: WriteSpec, target?: PostRecord): Plan {
  if (!u) return { refuse: [401] }
  if (!canEditPosts(u) || (target && !canChange(u, target))) return { refuse: [403] }
  const other = spec.author && spec.author !== 'self' ? USER_LIST[spec.author.other % USER_LIST.length]! : undefined
  if (other && other.id !== u.id && !canEditOthers(u)) return { refuse: [403] }
  // A contributor's `private` may be refused (403) before the dates are looked at.
  if (spec.badDates) return { refuse: writtenStatus(spec.status, u, spec.future) === undefined ? [400, 403] : [400] }
  const untrashed =
    target?.status === 'trash' && spec.status === undefined ? (canPublish(u) ? 'publish' : 'draft') : undefined
  const status =
    spec.status !== undefined || !target ? writtenStatus(spec.status, u, spec.future) : (untrashed ?? target.status)
  const owner = other?.id ?? (spec.author === 'self' ? u.id : (target?.owner ?? u.id))
  return { ok: true, status, owner }
}

/** The request body of a write, and how to read its links back. */
export function body(
  model: Model,
  kind: PostKind,
  spec: WriteSpec,
  creating: boolean,
  nameIndex: number,
): Record<string, unknown> {
  const b: Record<string, unknown> = {}
  const count = ++model.counter
  if (kind === 'events') {
    if (creating) b.title = NAMES.events[nameIndex % NAMES.events.length]
    else b.title = `Edited ${count}`
    const day = DATES[count % DATES.length]
    if (creating || spec.badDates) {
      b.start_date = `${day} 18:00:00`
      // The day before: before the start even for an all-day event, whose times do not count.
      const before = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
      b.end_date = spec.badDates ? `${before} 21:00:00` : `${day} 21:00:00`
    }
  } else {
    if (creating)
      b[kind === 'venues' ? 'venue' : 'organizer'] =
        `${NAMES[kind][nameIndex % NAMES[kind].length]}${AVOID.has('reuse') ? ` ${count}` : ''}`
    b.phone = `+65 6000 ${String(count).padStart(4, '0')}`
  }
  if (spec.status) b.status = spec.status
  if (spec.future) b.date = '2027-12-01 10:00:00'
  if (spec.password !== undefined) b.password = spec.password
  if (spec.author)
    b.author =
      spec.author === 'self' ? (USER_LIST[spec.who]?.id ?? 1) : USER_LIST[spec.author.other % USER_LIST.length]!.id
  if (spec.venue !== undefined) b.venue = spec.venue === 'clear' ? '' : linkValue(model, 'venues', spec.venue)
  if (b.venue === undefined) delete b.venue
  if (spec.organizer !== undefined)
    b.organizer = spec.organizer.map((l) => linkValue(model, 'organizers', l)).filter((v) => v !== undefined)
  for (const field of ['categories', 'tags'] as const) {
    const refs = spec[field]
    if (refs)
      b[field] = refs.map((r) =>
        typeof r === 'string' ? r : (pick(termsOfKind(model, field), r.ref)?.id ?? NAMES[field][0]),
      )
  }
  return b
}

const termsOfKind = (model: Model, kind: TermKind) => [...model.terms.values()].filter((t) => t.kind === kind)
const live = (model: Model, kind: PostKind) => postsOf(model, kind).filter((r) => r.status !== 'trash')

function linkValue(model: Model, kind: 'venues' | 'organizers', spec: LinkSpec): unknown {
  if ('ref' in spec) {
    const target = pick(live(model, kind), spec.ref)
    if (target) return kind === 'venues' ? target.id : { id: target.id }
  }
  if (AVOID.has('inline')) return undefined
  const index = 'inline' in spec ? spec.inline : spec.ref
  const field = kind === 'venues' ? 'venue' : 'organizer'
  const unique = AVOID.has('reuse') ? ` ${model.counter + 1000}` : ''
  return {
    [field]: `${NAMES[kind][index % NAMES[kind].length]}${unique}`,
    phone: `+65 6100 ${String(++model.counter).padStart(4, '0')}`,
  }
}
