import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

export const SAMPLES = resolve(import.meta.dirname, 'fixtures/tec-samples')

/** A captured reference response: its status, its contract headers and its parsed body. */
export function sample(name: string) {
  const head = readFileSync(resolve(SAMPLES, `${name}.headers`), 'utf8').split(/\r?\n/)
  const status = Number(head[0]!.split(' ')[1])
  const headers = head
    .slice(1)
    .filter((line) => line.includes(':'))
    .map((line) => line.slice(0, line.indexOf(':')))
  const text = readFileSync(resolve(SAMPLES, `${name}.json`), 'utf8')
  return {
    status,
    headers: headers.filter((h) => !/^(host|date|connection|x-powered-by)$/i.test(h)),
    body: JSON.parse(text) as unknown,
  }
}

/**
 * Keys Almanac adds on purpose (docs/compatibility.md §1, and an event's status and attendance:
 * docs/compatibility.md §32): removed before comparing with the reference.
 */
export const ADDED = new Set([
  'lang',
  'translations',
  'languages',
  'event_status',
  'event_status_reason',
  'previous_start_date',
  'attendance_mode',
  'online_url',
])

/**
 * The shape of a JSON value: objects keep their keys in order, arrays their first element's shape,
 * scalars become their type. Two responses with equal shapes have the same keys, order and types.
 */
export function shapeOf(value: unknown, drop: Set<string> = ADDED): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0], drop)]
  if (value === null) return 'null'
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value as Record<string, unknown>))
      if (!drop.has(key)) out[key] = shapeOf(inner, drop)
    return out
  }
  return typeof value
}

/** Paths (dotted, `*` for any key or index) whose values may differ from the reference, and why. */
export type Allowed = Record<string, string>

/** Lists every leaf where two JSON values differ, skipping allowed paths and Almanac's additions. */
export function differences(ours: unknown, theirs: unknown, allowed: Allowed, path = ''): string[] {
  if (Object.keys(allowed).some((pattern) => matchPath(pattern, path))) return []
  if (Array.isArray(theirs) && Array.isArray(ours)) {
    const out = ours.length === theirs.length ? [] : [`${path}: ${ours.length} items, reference has ${theirs.length}`]
    for (let i = 0; i < Math.min(ours.length, theirs.length); i++)
      out.push(...differences(ours[i], theirs[i], allowed, `${path}.${i}`))
    return out
  }
  if (
    theirs &&
    ours &&
    typeof theirs === 'object' &&
    typeof ours === 'object' &&
    !Array.isArray(ours) &&
    !Array.isArray(theirs)
  ) {
    const a = ours as Record<string, unknown>
    const b = theirs as Record<string, unknown>
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !ADDED.has(k)))
    return [...keys].flatMap((key) => differences(a[key], b[key], allowed, path ? `${path}.${key}` : key))
  }
  const same = JSON.stringify(ours) === JSON.stringify(swapNamespace(theirs))
  return same ? [] : [`${path}: ${JSON.stringify(ours)} ≠ reference ${JSON.stringify(theirs)}`]
}

function matchPath(pattern: string, path: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('.')
      .map((p) => (p === '*' ? '[^.]+' : p.replace(/[$()^[\]\\|+?{}]/g, '\\$&')))
      .join('\\.')}(\\..*)?$`,
  )
  return regex.test(path)
}

/** The reference serves `tribe/events/v1`; Almanac serves `calendar/events/v1`. */
export function swapNamespace(value: unknown): unknown {
  return typeof value === 'string' ? value.replace('tribe/events/v1', 'calendar/events/v1') : value
}
