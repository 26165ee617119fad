import type fc from 'fast-check'
import {
  canChange,
  canManageTerms,
  forget,
  idTaken,
  pick,
  postsOf,
  termNamed,
  termsOf,
  type Kind,
  type Lang,
  type Model,
  type TermKind,
} from './model.ts'
import { expectStatus, fail, name, send, treeNow, unchangedTree, type Real } from './observe.ts'
import { login, NAMES, userOf, withLang } from './writes.ts'

/** POST /categories or /tags: authors and up make categories, editors and up tags; a taken name is 400 term_exists. */
export class CreateTerm implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(
    readonly kind: TermKind,
    readonly nameIndex: number,
    readonly who: number,
    readonly lang: Lang,
  ) {}
  check = () => true
  async run(model: Model, real: Real): Promise<void> {
    const u = userOf(this.who)
    const label = NAMES[this.kind][this.nameIndex % NAMES[this.kind].length]!
    model.langs.add(this.lang)
    const refuse = !u ? 401 : !canManageTerms(u, this.kind) ? 403 : termNamed(model, this.kind, label) ? 400 : 0
    const before = await treeNow(real)
    const answer = await send(real, 'POST', withLang(this.kind, this.lang), u, {
      name: label,
      description: `About ${label}`,
    })
    this.last = `→ ${answer.status}`
    if (refuse) {
      expectStatus(real, answer, [refuse], `POST ${this.kind} "${label}" by ${name(u)}`)
      return unchangedTree(real, before, `POST ${this.kind}`)
    }
    expectStatus(real, answer, [201], `POST ${this.kind} "${label}" by ${name(u)}`)
    const id = answer.body.id as number
    if (idTaken(model, 'term', id)) fail(real, `a new ${this.kind} reuses the id ${id}`, answer)
    model.terms.set(id, { kind: this.kind, id, name: label })
  }
  toString = () => `create ${this.kind} name#${this.nameIndex} by ${login(this.who)} ${this.lang} ${this.last}`
}

/** PATCH or DELETE a term (deleting is always for good and takes it out of its events). */
export class WriteTerm implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(
    readonly kind: TermKind,
    readonly target: number,
    readonly who: number,
    readonly remove: boolean,
    readonly lang: Lang,
  ) {}
  check = (model: Model) => termsOf(model, this.kind).length > 0
  async run(model: Model, real: Real): Promise<void> {
    const term = pick(termsOf(model, this.kind), this.target)
    if (!term) return
    const u = userOf(this.who)
    model.langs.add(this.lang)
    const path = withLang(`${this.kind}/${term.id}`, this.lang)
    const method = this.remove ? 'DELETE' : 'PATCH'
    this.last = `${method} ${path}`
    const before = await treeNow(real)
    const answer = await send(
      real,
      method,
      path,
      u,
      this.remove ? undefined : { description: `Edited ${++model.counter}` },
    )
    const refuse = !u ? 401 : !canManageTerms(u, this.kind) ? 403 : 0
    if (refuse) {
      expectStatus(real, answer, [refuse], `${method} ${path} by ${name(u)}`)
      return unchangedTree(real, before, `${method} ${path}`)
    }
    expectStatus(real, answer, [200], `${method} ${path} by ${name(u)}`)
    if (answer.body?.id !== term.id) fail(real, `${method} ${path} answered term ${answer.body?.id}`, answer)
    if (this.remove) forget(model, this.kind, term.id)
  }
  toString = () =>
    `${this.remove ? 'delete' : 'update'} ${this.kind} #${this.target} by ${login(this.who)} ${this.lang} ${this.last}`
}

const BODY: Record<Kind, (n: number) => Record<string, unknown>> = {
  events: (n) => ({ title: `Matched ${n}` }),
  venues: (n) => ({ phone: `+65 6200 ${String(n).padStart(4, '0')}` }),
  organizers: (n) => ({ phone: `+65 6300 ${String(n).padStart(4, '0')}` }),
  categories: (n) => ({ description: `Matched ${n}` }),
  tags: (n) => ({ description: `Matched ${n}` }),
}

/**
 * If-Match (docs/compatibility.md §14): a write with the ETag the caller just read succeeds; the same ETag, now stale,
 * is 412 with the current ETag, and changes nothing.
 */
export class IfMatch implements fc.AsyncCommand<Model, Real> {
  last = ''
  constructor(
    readonly kind: Kind,
    readonly target: number,
    readonly who: number,
  ) {}
  check = () => true
  async run(model: Model, real: Real): Promise<void> {
    const u = userOf(this.who)
    const post = this.kind === 'categories' || this.kind === 'tags' ? undefined : this.kind
    const candidates = post
      ? postsOf(model, post).filter((r) => r.status !== 'trash' && r.password === '' && canChange(u, r))
      : canManageTerms(u, this.kind as TermKind)
        ? termsOf(model, this.kind as TermKind)
        : []
    const target = pick<{ id: number }>(candidates, this.target)
    if (!target || !u) return
    const path = `${this.kind}/${target.id}`
    this.last = `If-Match on ${path} by ${u.login}`
    const read = await send(real, 'GET', path, u)
    expectStatus(real, read, [200], `GET ${path} by ${name(u)}`)
    const tag = read.headers.get('etag')
    if (!tag) fail(real, `GET ${path} has no ETag`, read)
    const fresh = await send(real, 'PATCH', path, u, BODY[this.kind](++model.counter), { 'If-Match': tag })
    expectStatus(real, fresh, [200], `PATCH ${path} with the current ETag by ${name(u)}`)
    if (post) {
      const record = model.posts.get(target.id)!
      const body = BODY[this.kind](model.counter)
      if (body.phone) record.phone = String(body.phone)
    }
    const before = await treeNow(real)
    const stale = await send(real, 'PATCH', path, u, BODY[this.kind](++model.counter), { 'If-Match': tag })
    expectStatus(real, stale, [412], `PATCH ${path} with a stale ETag by ${name(u)}`)
    const now = await send(real, 'GET', path, u)
    if (stale.headers.get('etag') !== now.headers.get('etag'))
      fail(
        real,
        `412 on ${path} carried ETag ${stale.headers.get('etag')}, the current one is ${now.headers.get('etag')}`,
      )
    await unchangedTree(real, before, `PATCH ${path} with a stale ETag`)
  }
  toString = () => `if-match ${this.kind} #${this.target} by ${login(this.who)} ${this.last}`
}
