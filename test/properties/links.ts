import type { User } from './harness.ts'
import {
  canChange,
  canManageTerms,
  canRead,
  canPublish,
  idTaken,
  sameNamed,
  termNamed,
  type Model,
  type PostRecord,
  type TermKind,
} from './model.ts'
import { fail, name, type Real } from './observe.ts'

/**
 * After a successful event write: its links agree with what was sent. An inline record is a new
 * one with a fresh id, or a live same-named one; written onto only when the caller may change it.
 */
export function learnLinks(
  model: Model,
  real: Real,
  u: User,
  sent: Record<string, unknown>,
  answer: any,
  event: PostRecord,
): void {
  const got = (value: unknown): number[] =>
    Array.isArray(value)
      ? value.map((x: { id: number }) => x.id)
      : value && typeof value === 'object'
        ? [(value as { id: number }).id]
        : []
  if (sent.venue !== undefined)
    event.venue = linked(model, real, u, 'venues', sent.venue === '' ? [] : [sent.venue], got(answer.venue), event.id)
  if (sent.organizer !== undefined)
    event.organizer = linked(model, real, u, 'organizers', sent.organizer as unknown[], got(answer.organizer), event.id)
  for (const field of ['categories', 'tags'] as const)
    if (sent[field] !== undefined) event[field] = terms(model, real, u, field, sent[field] as unknown[], answer[field])
}

function linked(
  model: Model,
  real: Real,
  u: User,
  kind: 'venues' | 'organizers',
  sent: unknown[],
  got: number[],
  eventId: number,
): number[] {
  const expected: number[] = []
  // The answer embeds only the linked records the caller may read on their own.
  const shown = (id: number) => {
    const record = model.posts.get(id)
    return record !== undefined && canRead(u, record)
  }
  let next = 0
  for (const item of sent) {
    if (typeof item === 'number' || (typeof item === 'object' && item !== null && 'id' in item)) {
      const wanted = typeof item === 'number' ? item : (item as { id: number }).id
      if (expected.includes(wanted)) continue
      expected.push(wanted)
      if (shown(wanted)) next++
      continue
    }
    const entry = item as Record<string, string>
    const label = entry.venue ?? entry.organizer!
    const id = got[next]
    const candidate =
      id !== undefined &&
      !expected.includes(id) &&
      (!model.posts.has(id) || sameNamed(model, kind, label).some((r) => r.id === id))
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
  const visible = expected.filter(shown)
  if (got.join() !== visible.join())
    fail(
      real,
      `${kind} linked ${JSON.stringify(got)}, expected ${JSON.stringify(visible)} (of ${JSON.stringify(expected)})`,
    )
  return expected
}

/** A record reused by name, or created: the model's rules for both (issue 10 "reuse-by-name"). */
export function adoptOrCreate(
  model: Model,
  real: Real,
  u: User,
  kind: 'venues' | 'organizers',
  label: string,
  phone: string,
  id: number,
  status?: string,
  inline = false,
): PostRecord {
  const existing = model.posts.get(id)
  if (existing) {
    const twins = sameNamed(model, kind, label)
    if (!twins.includes(existing))
      fail(
        real,
        `"${label}" was linked to ${kind} ${id} ("${existing.name}", ${existing.status}), not a live record of that name`,
      )
    // Inline, a record the caller may not read may be linked (without writing); never returned by POST /venues.
    if (!inline && !canRead(u, existing))
      fail(
        real,
        `${name(u)} was given ${kind} ${id} (${existing.status}, owner ${existing.owner}), which they may not read`,
      )
    if (canChange(u, existing)) existing.phone = phone
    return existing
  }
  if (idTaken(model, 'post', id)) fail(real, `new ${kind} reuses the id ${id}`)
  const record: PostRecord = {
    kind,
    id,
    owner: u.id,
    status: status ?? (canPublish(u) ? 'publish' : 'draft'),
    slug: '',
    name: label,
    phone,
    venue: [],
    organizer: [],
    categories: [],
    tags: [],
    password: '',
  }
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
  if ([...ids].sort().join() !== [...expected].sort().join())
    fail(
      real,
      `${kind} ${JSON.stringify(ids)}, expected ${JSON.stringify(expected)} for ${JSON.stringify(sent)} by ${name(u)}`,
    )
  return expected
}
