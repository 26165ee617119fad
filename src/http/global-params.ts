/** Whether a request uses `_fields`, `_envelope` or `_pretty`, which need the body as an object. */
export function hasGlobalParams(query: Record<string, unknown>): boolean {
  return query._fields !== undefined || query._envelope !== undefined || query._pretty !== undefined
}

/**
 * WordPress's global parameters: `_fields` keeps the listed keys (dotted paths reach into
 * objects, not lists); `_envelope` wraps the answer as `{body, status, headers}` with status 200.
 */
export function applyGlobalParams(
  body: unknown,
  query: Record<string, unknown>,
  status: number,
  headers: Record<string, string>,
) {
  let out = body
  if (typeof query._fields === 'string' && out && typeof out === 'object' && !Array.isArray(out)) {
    out = pickFields(
      out as Record<string, unknown>,
      query._fields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    )
  }
  if (query._envelope !== undefined) {
    const typed = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]))
    return { body: { body: out, status, headers: typed }, status: 200 }
  }
  return { body: out, status }
}

function pickFields(record: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) {
    if (fields.includes(key)) {
      out[key] = value
      continue
    }
    const nested = fields.filter((f) => f.startsWith(`${key}.`)).map((f) => f.slice(key.length + 1))
    if (nested.length === 0) continue
    if (Array.isArray(value)) out[key] = []
    else if (value && typeof value === 'object') out[key] = pickFields(value as Record<string, unknown>, nested)
  }
  return out
}
