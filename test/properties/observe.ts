import { changedFiles, ask, snapshot, USER_LIST, type Answer, type Running, type User } from './harness.ts'
import {
  canRead,
  POST_KINDS,
  postsOf,
  TERM_KINDS,
  termsOf,
  type Model,
  type PostKind,
  type PostRecord,
} from './model.ts'

/** A run: the app over its tree, and the log of every request, printed with any failure. */
export interface Real extends Running {
  log: string[]
}

export const ADMIN = USER_LIST[0]!

/** A failed expectation: what was expected, the answer, and the requests of the run so far. */
export class ModelMismatch extends Error {}

export function fail(real: Real, message: string, answer?: Answer): never {
  const got = answer ? `\n  got ${answer.status} ${answer.text.slice(0, 600)}` : ''
  throw new ModelMismatch(
    `${message}${got}\n  requests of this run (last 40):\n    ${real.log.slice(-40).join('\n    ')}`,
  )
}

export const name = (u: User | null) => (u ? `${u.login}(${u.id},${u.role})` : 'anonymous')

/** Sends a request, logs it, and fails at once on any 5xx: no request may ever crash a handler. */
export async function send(
  real: Real,
  method: string,
  path: string,
  u: User | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const answer = await ask(real.app, method, path, u, body, headers)
  const shown = body === undefined ? '' : ` ${JSON.stringify(body)}`
  const extra = Object.keys(headers).length ? ` ${JSON.stringify(headers)}` : ''
  real.log.push(
    `${method} ${path} as ${name(u)}${shown}${extra} → ${answer.status}${answer.status >= 400 ? ` ${answer.body?.code ?? ''}` : ''}`,
  )
  if (answer.status >= 500) fail(real, `${method} ${path} answered ${answer.status}`, answer)
  return answer
}

export function expectStatus(real: Real, answer: Answer, allowed: number[], what: string): void {
  if (!allowed.includes(answer.status)) fail(real, `${what}: expected ${allowed.join(' or ')}`, answer)
}

/** A write the model expects to be refused must leave every byte of the tree as it was. */
export async function unchangedTree(real: Real, before: Map<string, string>, what: string): Promise<void> {
  const changed = changedFiles(before, await snapshot(real.content))
  if (changed.length) fail(real, `${what} was refused but changed files: ${changed.join(', ')}`)
}

const ids = (list: unknown): number[] => (Array.isArray(list) ? list.map((x: { id: number }) => x.id) : [])
const venueIds = (venue: unknown): number[] =>
  Array.isArray(venue) ? ids(venue) : venue && typeof venue === 'object' ? [(venue as { id: number }).id] : []
const same = (a: number[], b: number[]) => [...a].sort((x, y) => x - y).join() === [...b].sort((x, y) => x - y).join()

/**
 * Whether a caller sees a linked venue or organizer embedded in an event: only one they may read
 * on its own (issue 10: embedding never shows a draft to whom its single read would refuse).
 */
export function embedsFor(model: Model, u: User | null): (id: number) => boolean {
  return (id) => {
    const linked = model.posts.get(id)
    return linked !== undefined && canRead(u, linked)
  }
}

/** Checks one record's answer against the model: id, status, owner, links (as the caller sees them) and the followed field. */
export function agrees(
  real: Real,
  record: PostRecord,
  body: any,
  what: string,
  embeds: (id: number) => boolean = () => true,
): void {
  const problems: string[] = []
  const venue = record.venue.filter(embeds)
  const organizer = record.organizer.filter(embeds)
  if (body?.id !== record.id) problems.push(`id ${body?.id} ≠ ${record.id}`)
  if (body?.status !== record.status) problems.push(`status ${body?.status} ≠ ${record.status}`)
  if (String(body?.author ?? '0') !== String(record.owner)) problems.push(`author ${body?.author} ≠ ${record.owner}`)
  if (record.kind !== 'events' && (body?.phone ?? '') !== record.phone)
    problems.push(`phone ${JSON.stringify(body?.phone)} ≠ ${JSON.stringify(record.phone)}`)
  if (record.kind === 'events' && record.password === '') {
    if (!same(venueIds(body?.venue), venue))
      problems.push(`venue ${JSON.stringify(venueIds(body?.venue))} ≠ ${JSON.stringify(venue)}`)
    if (!same(ids(body?.organizer), organizer))
      problems.push(`organizer ${JSON.stringify(ids(body?.organizer))} ≠ ${JSON.stringify(organizer)}`)
    if (!same(ids(body?.categories), record.categories))
      problems.push(`categories ${JSON.stringify(ids(body?.categories))} ≠ ${JSON.stringify(record.categories)}`)
    if (!same(ids(body?.tags), record.tags))
      problems.push(`tags ${JSON.stringify(ids(body?.tags))} ≠ ${JSON.stringify(record.tags)}`)
  }
  if (problems.length)
    fail(real, `${what}: ${record.kind} ${record.id} disagrees with the model: ${problems.join('; ')}`)
}

const EVERY_STATUS = 'publish,future,draft,pending,private,trash'

/**
 * After every step: an administrator's lists of every kind, in every status, hold exactly the
 * model's records with the model's owners, statuses and links. Lost, duplicated or changed
 * records show here. Slugs of new records are learnt from here.
 */
export async function reconcile(model: Model, real: Real): Promise<void> {
  for (const kind of POST_KINDS) {
    const answer = await send(real, 'GET', `${kind}?per_page=50&status=${EVERY_STATUS}`, ADMIN)
    expectStatus(real, answer, [200], `the administrator's list of ${kind}`)
    const items: any[] = answer.body[kind]
    const wanted = postsOf(model, kind)
    const got = items.map((item) => item.id)
    if (
      !same(
        got,
        wanted.map((r) => r.id),
      ) ||
      got.length !== new Set(got).size
    ) {
      fail(
        real,
        `${kind} on the server ${JSON.stringify(got.sort((a, b) => a - b))} ≠ the model's ${JSON.stringify(wanted.map((r) => r.id))}`,
      )
    }
    for (const item of items) {
      const record = model.posts.get(item.id)!
      agrees(real, record, item, `the administrator's list of ${kind}`)
      record.slug = String(item.slug ?? '')
    }
    uniqueSlugs(real, kind, wanted)
  }
  for (const kind of TERM_KINDS) {
    const answer = await send(real, 'GET', `${kind}?per_page=50&hide_empty=false`, ADMIN)
    expectStatus(real, answer, [200], `the list of ${kind}`)
    const got = (answer.body[kind] as { id: number; name: string }[])
      .map((t) => `${t.id}:${t.name.toLowerCase()}`)
      .sort()
    const wanted = termsOf(model, kind)
      .map((t) => `${t.id}:${t.name.toLowerCase()}`)
      .sort()
    if (got.join() !== wanted.join())
      fail(real, `${kind} on the server ${JSON.stringify(got)} ≠ the model's ${JSON.stringify(wanted)}`)
  }
}

/** Two live records of one kind never share a slug in one language: a by-slug request must name one record. */
function uniqueSlugs(real: Real, kind: PostKind, records: PostRecord[]): void {
  const seen = new Map<string, number>()
  for (const record of records) {
    if (record.status === 'trash' || record.slug === '') continue
    const other = seen.get(record.slug)
    if (other !== undefined) fail(real, `${kind} ${other} and ${record.id} share the slug "${record.slug}"`)
    seen.set(record.slug, record.id)
  }
}

export async function treeNow(real: Real): Promise<Map<string, string>> {
  return snapshot(real.content)
}
