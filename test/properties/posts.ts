import type fc from 'fast-check'
import type { User } from './harness.ts'
import {
  canChange,
  canEditOthers,
  canEditPosts,
  forget,
  idTaken,
  pick,
  postsOf,
  unlinkEverywhere,
  type Model,
  type PostKind,
  type PostRecord,
} from './model.ts'
import { adoptOrCreate, learnLinks } from './links.ts'
import { agrees, expectStatus, fail, name, send, treeNow, unchangedTree, type Real, embedsFor } from './observe.ts'
import { body, login, plan, shown, userOf, withLang, type WriteSpec } from './writes.ts'

/** POST /events, /venues, /organizers. */
export class CreatePost implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(
    readonly kind: PostKind,
    readonly spec: WriteSpec,
    readonly nameIndex: number,
  ) {}
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
    if (p.status === undefined && answer.status !== 201)
      return unchangedTree(real, before, `POST ${this.kind} (private by a contributor)`)
    expectStatus(real, answer, [201], `POST ${this.kind} by ${name(u)}`)
    const reused = this.kind !== 'events' && model.posts.has(answer.body.id)
    if (p.status === undefined && !reused && !['pending', 'draft'].includes(answer.body.status))
      fail(real, `a contributor's private ${this.kind} was stored as ${answer.body.status}`, answer)
    const id = answer.body.id as number
    let record: PostRecord
    if (this.kind === 'events') {
      if (idTaken(model, 'post', id)) fail(real, `a new event reuses the id ${id}`, answer)
      record = {
        kind: 'events',
        id,
        owner: p.owner,
        status: p.status ?? answer.body.status,
        slug: '',
        name: String(b.title),
        phone: '',
        venue: [],
        organizer: [],
        categories: [],
        tags: [],
        password: String(b.password ?? ''),
      }
      model.posts.set(id, record)
      learnLinks(model, real, u!, b, answer.body, record)
    } else {
      const fresh = !model.posts.has(id)
      record = adoptOrCreate(
        model,
        real,
        u!,
        this.kind,
        String(b[this.kind === 'venues' ? 'venue' : 'organizer']),
        String(b.phone),
        id,
        p.status ?? answer.body.status,
      )
      if (fresh) record.owner = p.owner
    }
    agrees(real, record, answer.body, `POST ${this.kind} by ${name(u)}`, embedsFor(model, u))
  }
  toString = () => `create ${this.kind} ${shown(this.spec)} name#${this.nameIndex % 3} ${this.last}`
}

/** POST/PUT/PATCH on one record, by id or by slug (the same checks either way: docs/compatibility.md §6). */
export class UpdatePost implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(
    readonly kind: PostKind,
    readonly target: number,
    readonly spec: WriteSpec,
    readonly method: string,
    readonly bySlug: boolean,
  ) {}
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
    const path = this.bySlug
      ? `${this.kind}/by-slug/${encodeURIComponent(record.slug)}`
      : withLang(`${this.kind}/${record.id}`, this.spec.lang)
    this.last = `${this.method} ${path}`
    const before = await treeNow(real)
    const answer = await send(real, this.method, path, u, b)
    if ('refuse' in p) {
      expectStatus(real, answer, p.refuse, `${this.method} ${this.kind} ${record.id} by ${name(u)}`)
      return unchangedTree(real, before, `${this.method} ${path}`)
    }
    if (p.status === undefined && answer.status !== 200)
      return unchangedTree(real, before, `${this.method} ${path} (private by a contributor)`)
    expectStatus(real, answer, [200], `${this.method} ${this.kind} ${record.id} by ${name(u)}`)
    record.status = p.status ?? answer.body.status
    record.owner = p.owner
    if (b.password !== undefined) record.password = String(b.password)
    if (this.kind === 'events') learnLinks(model, real, u!, b, answer.body, record)
    else record.phone = String(b.phone)
    agrees(real, record, answer.body, `${this.method} ${path} by ${name(u)}`, embedsFor(model, u))
  }
  toString = () => `update ${this.kind} ${shown(this.spec)} ${this.last}`
}

/** The record a write names: for odd picks, one of the caller's own when they have any (ownership matters). */
function targetOf(model: Model, kind: PostKind, n: number, bySlug: boolean, u: User | null): PostRecord | undefined {
  const records = postsOf(model, kind).filter((r) => !bySlug || (r.status !== 'trash' && r.slug !== ''))
  const own = records.filter((r) => r.owner === u?.id)
  return n % 2 === 1 && own.length ? pick(own, n >> 1) : pick(records, n >> 1)
}

/** DELETE one record: trash (410 the second time), or `force=true` for good (editors only, docs/compatibility.md §8). */
export class DeletePost implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(
    readonly kind: PostKind,
    readonly target: number,
    readonly who: number,
    readonly force: boolean,
    readonly bySlug: boolean,
  ) {}
  check = (model: Model) => postsOf(model, this.kind).length > 0
  async run(model: Model, real: Real): Promise<void> {
    const u = userOf(this.who)
    const record = targetOf(model, this.kind, this.target, this.bySlug, u)
    if (!record) return
    const path = `${this.bySlug ? `${this.kind}/by-slug/${encodeURIComponent(record.slug)}` : `${this.kind}/${record.id}`}${this.force ? '?force=true' : ''}`
    this.last = `DELETE ${path}`
    const refuse = !u
      ? 401
      : !canEditPosts(u) || !canChange(u, record) || (this.force && !canEditOthers(u))
        ? 403
        : !this.force && record.status === 'trash'
          ? 410
          : 0
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
      record.trashedFrom = record.status
      record.status = 'trash'
      unlinkEverywhere(model, this.kind, record.id)
      agrees(real, record, answer.body, `DELETE ${path}`, embedsFor(model, u))
    }
  }
  toString = () => `delete ${this.kind} by ${login(this.who)}${this.force ? ' force' : ''} ${this.last}`
}
