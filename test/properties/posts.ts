import fc from 'fast-check'
import { USER_LIST, type User } from './harness.ts'
import {
  AVOID, canChange, canEditOthers, canEditPosts, canManageTerms, canPublish, canRead, forget, idTaken, listed, pick, postsOf,
  sameNamed, termNamed, unlinkEverywhere, writtenStatus, type Lang, type Model, type PostKind, type PostRecord, type TermKind,
} from './model.ts'
import { agrees, expectStatus, fail, name, send, treeNow, unchangedTree, type Real } from './observe.ts'

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
export const withLang = (path: string, l: Lang) => (l === 'en' ? path : `${path}${path.includes('?') ? '&' : '?'}ml_language=${l}`)

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
  /** An event whose end is before its start: 400, and nothing written (D6, issue 10 all-or-nothing). */
  badDates?: boolean
  /** Events: set (or with '' clear) a password; a locked event is read only with it (§4.7). */
  password?: 'Secret-1' | ''
  /** Events: a publication date in the future, sent with a status: `publish` becomes `future`. */
  future?: boolean
}

const link = fc.oneof(fc.record({ ref: fc.nat() }), fc.record({ inline: fc.nat() }))
const termRefs = (kind: TermKind) => fc.array(fc.oneof(fc.constantFrom(...NAMES[kind]), fc.record({ ref: fc.nat() })), { maxLength: 2 })

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
type Plan = { refuse: number[] } | { ok: true; status: string | undefined; owner: number }

function plan(model: Model, u: User | null, spec: WriteSpec, target?: PostRecord): Plan {
  if (!u) return { refuse: [401] }
  if (!canEditPosts(u) || (target && !canChange(u, target))) return { refuse: [403] }
  const other = spec.author && spec.author !== 'self' ? USER_LIST[spec.author.other % USER_LIST.length]! : undefined
  if (other && other.id !== u.id && !canEditOthers(u)) return { refuse: [403] }
  // A contributor's `private` may be refused (403) before the dates are looked at.
  if (spec.badDates) return { refuse: writtenStatus(spec.status, u, spec.future) === undefined ? [400, 403] : [400] }
  const untrashed = target?.status === 'trash' && spec.status === undefined ? (canPublish(u) ? 'publish' : 'draft') : undefined
  const status = spec.status !== undefined || !target ? writtenStatus(spec.status, u, spec.future) : (untrashed ?? target.status)
  const owner = other?.id ?? (spec.author === 'self' ? u.id : (target?.owner ?? u.id))
  return { ok: true, status, owner }
}

/** The request body of a write, and how to read its links back. */
function body(model: Model, kind: PostKind, spec: WriteSpec, creating: boolean, nameIndex: number): Record<string, unknown> {
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
    if (creating) b[kind === 'venues' ? 'venue' : 'organizer'] = `${NAMES[kind][nameIndex % NAMES[kind].length]}${AVOID.has('reuse') ? ` ${count}` : ''}`
    b.phone = `+65 6000 ${String(count).padStart(4, '0')}`
  }
  if (spec.status) b.status = spec.status
  if (spec.future) b.date = '2027-12-01 10:00:00'
  if (spec.password !== undefined) b.password = spec.password
  if (spec.author) b.author = spec.author === 'self' ? USER_LIST[spec.who]?.id ?? 1 : USER_LIST[spec.author.other % USER_LIST.length]!.id
  if (spec.venue !== undefined) b.venue = spec.venue === 'clear' ? '' : linkValue(model, 'venues', spec.venue)
  if (b.venue === undefined) delete b.venue
  if (spec.organizer !== undefined) b.organizer = spec.organizer.map((l) => linkValue(model, 'organizers', l)).filter((v) => v !== undefined)
  for (const field of ['categories', 'tags'] as const) {
    const refs = spec[field]
    if (refs) b[field] = refs.map((r) => (typeof r === 'string' ? r : (pick(termsOfKind(model, field), r.ref)?.id ?? NAMES[field][0])))
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
  return { [field]: `${NAMES[kind][index % NAMES[kind].length]}${unique}`, phone: `+65 6100 ${String(++model.counter).padStart(4, '0')}` }
}

/**
 * After a successful event write: its links agree with what was sent. An inline record is a new
 * one with a fresh id, or a live same-named one; written onto only when the caller may change it.
 */
function learnLinks(model: Model, real: Real, u: User, sent: Record<string, unknown>, answer: any, event: PostRecord): void {
  const got = (value: unknown): number[] => (Array.isArray(value) ? value.map((x: { id: number }) => x.id) : value && typeof value === 'object' ? [(value as { id: number }).id] : [])
  if (sent.venue !== undefined) event.venue = linked(model, real, u, 'venues', sent.venue === '' ? [] : [sent.venue], got(answer.venue), event.id)
  if (sent.organizer !== undefined) event.organizer = linked(model, real, u, 'organizers', sent.organizer as unknown[], got(answer.organizer), event.id)
  for (const field of ['categories', 'tags'] as const) if (sent[field] !== undefined) event[field] = terms(model, real, u, field, sent[field] as unknown[], answer[field])
}

function linked(model: Model, real: Real, u: User, kind: 'venues' | 'organizers', sent: unknown[], got: number[], eventId: number): number[] {
  const expected: number[] = []
  let next = 0
  for (const item of sent) {
    if (typeof item === 'number' || (typeof item === 'object' && item !== null && 'id' in item)) {
      const wanted = typeof item === 'number' ? item : (item as { id: number }).id
      if (!expected.includes(wanted)) expected.push(wanted), next++
      continue
    }
    const entry = item as Record<string, string>
    const label = entry.venue ?? entry.organizer!
    const id = got[next]
    const candidate = id !== undefined && !expected.includes(id) && (!model.posts.has(id) || sameNamed(model, kind, label).some((r) => r.id === id))
    if (!candidate) {
      // A name already linked in this request: reused (and written onto, where the caller may change it).
      const twin = expected.find((e) => sameNamed(model, kind, label).some((r) => r.id === e))
      if (twin === undefined) fail(real, `the inline ${kind} "${label}" is not linked`)
      adoptOrCreate(model, real, u, kind, label, entry.phone!, twin, undefined, true)
      continue
    }
    if (id === eventId) fail(real, `the inline ${kind} "${label}" got the event's own id ${id}`)
    adoptOrCreate(model, real, u, kind, label, entry.phone!, id!, undefined, true)
    expected.push(id!)
    next++
  }
  if (got.join() !== expected.join()) fail(real, `${kind} linked ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`)
  return expected
}

/** A record reused by name, or created: the model's rules for both (issue 10 "reuse-by-name"). */
export function adoptOrCreate(model: Model, real: Real, u: User, kind: 'venues' | 'organizers', label: string, phone: string, id: number, status?: string, inline = false): PostRecord {
  const existing = model.posts.get(id)
  if (existing) {
    const twins = sameNamed(model, kind, label)
    if (!twins.includes(existing)) fail(real, `"${label}" was linked to ${kind} ${id} ("${existing.name}", ${existing.status}), not a live record of that name`)
    // Inline, a record the caller may not read may be linked (without writing); never returned by POST /venues.
    if (!inline && !canRead(u, existing)) fail(real, `${name(u)} was given ${kind} ${id} (${existing.status}, owner ${existing.owner}), which they may not read`)
    if (canChange(u, existing)) existing.phone = phone
    return existing
  }
  if (idTaken(model, 'post', id)) fail(real, `new ${kind} reuses the id ${id}`)
  const record: PostRecord = { kind, id, owner: u.id, status: status ?? (canPublish(u) ? 'publish' : 'draft'), slug: '', name: label, phone, venue: [], organizer: [], categories: [], tags: [], password: '' }
  model.posts.set(id, record)
  return record
}

function terms(model: Model, real: Real, u: User, kind: TermKind, sent: unknown[], answer: unknown): number[] {
  const got = Array.isArray(answer) ? (answer as { id: number; name: string }[]) : []
  const expected: number[] = []
  for (const item of sent) {
    const text = String(item)
    let id: number | undefined
    if (/^\d+$/.test(text)) id = model.terms.get(Number(text))?.kind === kind ? Number(text) : undefined
    else id = termNamed(model, kind, text)?.id
    if (id === undefined && !/^\d+$/.test(text) && canManageTerms(u, kind)) {
      const fresh = got.find((term) => term.name.toLowerCase() === text.toLowerCase())?.id
      if (fresh === undefined) fail(real, `the new ${kind} "${text}" was not created by ${name(u)}`)
      if (idTaken(model, 'term', fresh)) fail(real, `the new ${kind} "${text}" reuses the id ${fresh}`)
      model.terms.set(fresh, { kind, id: fresh, name: text })
      id = fresh
    }
    if (id !== undefined && !expected.includes(id)) expected.push(id)
  }
  const ids = got.map((term) => term.id)
  if ([...ids].sort().join() !== [...expected].sort().join()) fail(real, `${kind} ${JSON.stringify(ids)}, expected ${JSON.stringify(expected)} for ${JSON.stringify(sent)} by ${name(u)}`)
  return expected
}

/** POST /events, /venues, /organizers. */
export class CreatePost implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(readonly kind: PostKind, readonly spec: WriteSpec, readonly nameIndex: number) {}
  check = () => true
  async run(model: Model, real: Real): Promise<void> {
    const u = userOf(this.spec.who)
    const b = body(model, this.kind, this.spec, true, this.nameIndex)
    const p = plan(model, u, this.spec)
    model.langs.add(this.spec.lang)
    const before = await treeNow(real)
    const answer = await send(real, 'POST', withLang(this.kind, this.spec.lang), u, b)
    this.last = `→ ${answer.status}`
    if ('refuse' in p) {
      expectStatus(real, answer, p.refuse, `POST ${this.kind} by ${name(u)}`)
      return unchangedTree(real, before, `POST ${this.kind}`)
    }
    if (p.status === undefined && answer.status !== 201) return unchangedTree(real, before, `POST ${this.kind} (private by a contributor)`)
    expectStatus(real, answer, [201], `POST ${this.kind} by ${name(u)}`)
    if (p.status === undefined && !['pending', 'draft'].includes(answer.body.status)) fail(real, `a contributor's private ${this.kind} was stored as ${answer.body.status}`, answer)
    const id = answer.body.id as number
    let record: PostRecord
    if (this.kind === 'events') {
      if (idTaken(model, 'post', id)) fail(real, `a new event reuses the id ${id}`, answer)
      record = { kind: 'events', id, owner: p.owner, status: p.status ?? answer.body.status, slug: '', name: String(b.title), phone: '', venue: [], organizer: [], categories: [], tags: [], password: String(b.password ?? '') }
      model.posts.set(id, record)
      learnLinks(model, real, u!, b, answer.body, record)
    } else {
      const fresh = !model.posts.has(id)
      record = adoptOrCreate(model, real, u!, this.kind, String(b[this.kind === 'venues' ? 'venue' : 'organizer']), String(b.phone), id, p.status ?? answer.body.status)
      if (fresh) record.owner = p.owner
    }
    agrees(real, record, answer.body, `POST ${this.kind} by ${name(u)}`)
  }
  toString = () => `create ${this.kind} ${shown(this.spec)} name#${this.nameIndex % 3} ${this.last}`
}

/** POST/PUT/PATCH on one record, by id or by slug (D5: the same checks either way). */
export class UpdatePost implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(readonly kind: PostKind, readonly target: number, readonly spec: WriteSpec, readonly method: string, readonly bySlug: boolean) {}
  check = (model: Model) => postsOf(model, this.kind).length > 0
  async run(model: Model, real: Real): Promise<void> {
    const u = userOf(this.spec.who)
    const record = targetOf(model, this.kind, this.target, this.bySlug, u)
    if (!record) return
    const b = body(model, this.kind, this.spec, false, 0)
    // A password-protected event answers blanked: its links cannot be read back, so none are sent.
    if (record.password !== '') for (const field of ['venue', 'organizer', 'categories', 'tags']) delete b[field]
    const p = plan(model, u, this.spec, record)
    model.langs.add(this.spec.lang)
    // The model knows slugs in the default language only: by-slug writes are sent in it.
    const path = this.bySlug ? `${this.kind}/by-slug/${encodeURIComponent(record.slug)}` : withLang(`${this.kind}/${record.id}`, this.spec.lang)
    this.last = `${this.method} ${path}`
    const before = await treeNow(real)
    const answer = await send(real, this.method, path, u, b)
    if ('refuse' in p) {
      expectStatus(real, answer, p.refuse, `${this.method} ${this.kind} ${record.id} by ${name(u)}`)
      return unchangedTree(real, before, `${this.method} ${path}`)
    }
    if (p.status === undefined && answer.status !== 200) return unchangedTree(real, before, `${this.method} ${path} (private by a contributor)`)
    expectStatus(real, answer, [200], `${this.method} ${this.kind} ${record.id} by ${name(u)}`)
    record.status = p.status ?? answer.body.status
    record.owner = p.owner
    if (b.password !== undefined) record.password = String(b.password)
    if (this.kind === 'events') learnLinks(model, real, u!, b, answer.body, record)
    else record.phone = String(b.phone)
    agrees(real, record, answer.body, `${this.method} ${path} by ${name(u)}`)
  }
  toString = () => `update ${this.kind} ${shown(this.spec)} ${this.last}`
}

/** The record a write names: for odd picks, one of the caller's own when they have any (ownership matters). */
function targetOf(model: Model, kind: PostKind, n: number, bySlug: boolean, u: User | null): PostRecord | undefined {
  const records = postsOf(model, kind).filter((r) => !bySlug || (r.status !== 'trash' && r.slug !== ''))
  const own = records.filter((r) => r.owner === u?.id)
  return n % 2 === 1 && own.length ? pick(own, n >> 1) : pick(records, n >> 1)
}

/** DELETE one record: trash (410 the second time), or `force=true` for good (editors only, D7). */
export class DeletePost implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(readonly kind: PostKind, readonly target: number, readonly who: number, readonly force: boolean, readonly bySlug: boolean) {}
  check = (model: Model) => postsOf(model, this.kind).length > 0
  async run(model: Model, real: Real): Promise<void> {
    const u = userOf(this.who)
    const record = targetOf(model, this.kind, this.target, this.bySlug, u)
    if (!record) return
    const path = `${this.bySlug ? `${this.kind}/by-slug/${encodeURIComponent(record.slug)}` : `${this.kind}/${record.id}`}${this.force ? '?force=true' : ''}`
    this.last = `DELETE ${path}`
    const refuse = !u ? 401 : !canEditPosts(u) || !canChange(u, record) || (this.force && !canEditOthers(u)) ? 403 : !this.force && record.status === 'trash' ? 410 : 0
    const before = await treeNow(real)
    const answer = await send(real, 'DELETE', path, u)
    if (refuse) {
      expectStatus(real, answer, [refuse], `DELETE ${this.kind} ${record.id} by ${name(u)}`)
      return unchangedTree(real, before, `DELETE ${path}`)
    }
    expectStatus(real, answer, [200], `DELETE ${this.kind} ${record.id} by ${name(u)}`)
    if (this.force) {
      if (answer.body?.deleted !== true) fail(real, `DELETE ${path} did not say deleted`, answer)
      forget(model, this.kind, record.id)
    } else {
      record.status = 'trash'
      unlinkEverywhere(model, this.kind, record.id)
      agrees(real, record, answer.body, `DELETE ${path}`)
    }
  }
  toString = () => `delete ${this.kind} by ${login(this.who)}${this.force ? ' force' : ''} ${this.last}`
}
