import type fc from 'fast-check'
import type { User } from './harness.ts'
import {
  AVOID,
  canEditPosts,
  canRead,
  listed,
  pick,
  postsOf,
  termsOf,
  type Lang,
  type Model,
  type PostKind,
  type PostRecord,
  type TermKind,
} from './model.ts'
import { agrees, expectStatus, fail, name, send, type Real, embedsFor } from './observe.ts'
import { login, userOf, withLang } from './writes.ts'

/** What a single read of a record should answer this caller (docs/compatibility.md §20, §21). */
function expectedRead(u: User | null, record: PostRecord, withPassword: boolean): number {
  if (record.kind === 'events' && record.status === 'trash') return 403
  if (!canRead(u, record)) return 403
  if (record.password !== '' && !withPassword) return 403
  return 200
}

/** GET one event, venue or organizer by id or slug; ids deleted for good are unknown (404 events, 400 others). */
export class ReadPost implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(
    readonly kind: PostKind,
    readonly target: number,
    readonly who: number,
    readonly lang: Lang,
    readonly bySlug: boolean,
  ) {}
  check = () => true
  async run(model: Model, real: Real): Promise<void> {
    const u = userOf(this.who)
    model.langs.add(this.lang)
    const records = postsOf(model, this.kind).filter((r) => !this.bySlug || (r.status !== 'trash' && r.slug !== ''))
    const gone = this.bySlug ? [] : (model.gone.get(this.kind) ?? [])
    const n = this.target % Math.max(1, records.length + gone.length)
    const record = records[n]
    const id = record?.id ?? gone[n - records.length]
    if (id === undefined) return
    // The model knows slugs in the default language only.
    // Odd picks of a protected event send its password.
    const unlock = record?.password && this.target % 2 === 1 ? `?password=${encodeURIComponent(record.password)}` : ''
    const path =
      this.bySlug && record
        ? `${this.kind}/by-slug/${encodeURIComponent(record.slug)}${unlock}`
        : withLang(`${this.kind}/${id}${unlock}`, this.lang)
    this.last = `GET ${path}`
    const answer = await send(real, 'GET', path, u)
    const wanted = record ? expectedRead(u, record, unlock !== '') : this.kind === 'events' ? 404 : 400
    expectStatus(
      real,
      answer,
      [wanted],
      `GET ${path} by ${name(u)}${record ? ` (${record.status}, owner ${record.owner})` : ' (deleted)'}`,
    )
    if (record && wanted === 200) agrees(real, record, answer.body, `GET ${path} by ${name(u)}`, embedsFor(model, u))
  }
  toString = () =>
    `read ${this.kind} #${this.target} by ${login(this.who)} ${this.lang}${this.bySlug ? ' by slug' : ''} ${this.last}`
}

export const STATUS_FILTERS = [undefined, 'publish', 'draft', 'pending', 'draft,pending', 'private'] as const

/** A list of events, venues or organizers, with or without a status filter: exactly what the caller may read. */
export class ListPosts implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(
    readonly kind: PostKind,
    readonly who: number,
    readonly filter: (typeof STATUS_FILTERS)[number],
    readonly lang: Lang,
  ) {}
  check = () => true
  async run(model: Model, real: Real): Promise<void> {
    const u = userOf(this.who)
    model.langs.add(this.lang)
    const path = withLang(`${this.kind}?per_page=50${this.filter ? `&status=${this.filter}` : ''}`, this.lang)
    this.last = `GET ${path}`
    const answer = await send(real, 'GET', path, u)
    // Callers without edit_posts may ask for `publish` only (docs/compatibility.md §20).
    if (this.filter && this.filter !== 'publish' && !canEditPosts(u))
      return expectStatus(real, answer, [400], `GET ${path} by ${name(u)}`)
    expectStatus(real, answer, [200], `GET ${path} by ${name(u)}`)
    if (AVOID.has('lists') && (u?.role === 'contributor' || u?.role === 'author')) return
    const statuses = this.filter?.split(',')
    const wanted = postsOf(model, this.kind)
      .filter((r) => listed(u, r, statuses))
      .map((r) => r.id)
    const got = (answer.body[this.kind] as { id: number }[]).map((item) => item.id)
    const extra = got.filter((id) => !wanted.includes(id)).map((id) => describe(model, id))
    const missing = wanted.filter((id) => !got.includes(id)).map((id) => describe(model, id))
    if (extra.length || missing.length || answer.body.total !== wanted.length) {
      fail(
        real,
        `GET ${path} by ${name(u)}: total ${answer.body.total}, expected ${wanted.length}; shown but not readable: [${extra.join('; ')}]; missing: [${missing.join('; ')}]`,
      )
    }
    for (const item of answer.body[this.kind])
      agrees(real, model.posts.get(item.id)!, item, `GET ${path} by ${name(u)}`, embedsFor(model, u))
  }
  toString = () => `list ${this.kind} by ${login(this.who)} status=${this.filter ?? '-'} ${this.lang} ${this.last}`
}

function describe(model: Model, id: number): string {
  const r = model.posts.get(id)
  return r ? `${id} ${r.status} owner ${r.owner}` : `${id} (not in the model)`
}

/** Terms are public: every caller reads every term; deleted ones are 400 (is_event_category). */
export class ReadTerms implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(
    readonly kind: TermKind,
    readonly target: number,
    readonly who: number,
    readonly lang: Lang,
  ) {}
  check = () => true
  async run(model: Model, real: Real): Promise<void> {
    const u = userOf(this.who)
    model.langs.add(this.lang)
    const list = await send(real, 'GET', withLang(`${this.kind}?per_page=50&hide_empty=false`, this.lang), u)
    expectStatus(real, list, [200], `GET ${this.kind} by ${name(u)}`)
    const wanted = termsOf(model, this.kind).map((t) => t.id)
    const got = (list.body[this.kind] as { id: number }[]).map((t) => t.id)
    if ([...got].sort().join() !== [...wanted].sort().join() || list.body.total !== wanted.length) {
      fail(
        real,
        `GET ${this.kind} by ${name(u)} listed ${JSON.stringify(got)}, expected ${JSON.stringify(wanted)}`,
        list,
      )
    }
    const ids = [...wanted, ...(model.gone.get(this.kind) ?? [])]
    const id = pick(ids, this.target)
    if (id === undefined) return
    const path = withLang(`${this.kind}/${id}`, this.lang)
    this.last = `GET ${path}`
    const one = await send(real, 'GET', path, u)
    expectStatus(real, one, [model.terms.has(id) ? 200 : 400], `GET ${path} by ${name(u)}`)
    if (one.status === 200 && one.body.id !== id) fail(real, `GET ${path} answered term ${one.body.id}`, one)
  }
  toString = () => `read ${this.kind} #${this.target} by ${login(this.who)} ${this.lang} ${this.last}`
}
