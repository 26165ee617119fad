import type { H3Event } from 'h3'
import { ApiError, apiError } from '../errors.ts'
import { parseQuery } from '../args/parse.ts'

/** Bodies above this are refused with 413 before they are read whole. */
export const BODY_LIMIT = 1024 * 1024
const MAX_DEPTH = 32
/** PHP's `max_input_vars`: no write takes more, and building an object of 50,000 keys held the event loop. */
export const MAX_FIELDS = 1_000

/**
 * The parameters in a request body: JSON (`Content-Type: application/json`) or a form
 * (`a=1&b[]=2`). Malformed JSON is WordPress's 400 `rest_invalid_json`; a body over the limit 413.
 */
export async function readParams(event: H3Event): Promise<Record<string, unknown>> {
  const declared = Number(event.req.headers.get('content-length') ?? 0)
  if (declared > BODY_LIMIT) throw apiError('rest_payload_too_large')
  const text = await readLimited(event)
  if (text.trim() === '') return {}
  const type = event.req.headers.get('content-type') ?? ''
  if (/application\/json/i.test(type)) return parseJson(text)
  if (!/application\/x-www-form-urlencoded/i.test(type) && type !== '') return {}
  const form = new URLSearchParams(text)
  if (form.size > MAX_FIELDS) throw apiError('rest_too_many_fields')
  return parseQuery(form)
}

async function readLimited(event: H3Event): Promise<string> {
  const reader = event.req.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > BODY_LIMIT) {
      await reader.cancel().catch(() => {})
      throw apiError('rest_payload_too_large')
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function parseJson(text: string): Record<string, unknown> {
  // Counted on the text first: JSON.parse of 500,000 nested arrays, or of an object of 50,000
  // keys, held the event loop for 80–300 ms.
  const scan = scanJson(text)
  if (scan.tooDeep) throw tooDeep()
  if (scan.tooManyFields && text.trimStart().startsWith('{')) throw apiError('rest_too_many_fields')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ApiError('rest_invalid_json', 400, 'Invalid JSON body passed.', {
      json_error_code: 4,
      json_error_message: (error as Error).message,
    })
  }
  if (depth(value) > MAX_DEPTH) throw tooDeep()
  // A JSON body that is not an object names no parameters, as in WordPress.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {}
  if (Object.keys(value).length > MAX_FIELDS) throw apiError('rest_too_many_fields')
  return value as Record<string, unknown>
}

function tooDeep(): ApiError {
  return new ApiError('rest_invalid_json', 400, 'Invalid JSON body passed.', {
    json_error_code: 1,
    json_error_message: `Maximum nesting depth of ${MAX_DEPTH} exceeded`,
  })
}

/**
 * One pass over a JSON text, outside strings: whether brackets nest deeper than MAX_DEPTH, and
 * whether a top-level object has more than MAX_FIELDS members (commas at depth 1, plus one).
 */
function scanJson(text: string): { tooDeep: boolean; tooManyFields: boolean } {
  let level = 0
  let commas = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === 92)
        i++ // a backslash: the next character is escaped
      else if (code === 34) inString = false
    } else if (code === 34) inString = true
    else if (code === 91 || code === 123) {
      if (++level > MAX_DEPTH) return { tooDeep: true, tooManyFields: false }
    } else if (code === 93 || code === 125) level--
    else if (code === 44 && level === 1 && ++commas >= MAX_FIELDS) return { tooDeep: false, tooManyFields: true }
  }
  return { tooDeep: false, tooManyFields: false }
}

function depth(value: unknown, level = 0): number {
  if (level > MAX_DEPTH || value === null || typeof value !== 'object') return level
  let deepest = level
  for (const inner of Object.values(value as object)) deepest = Math.max(deepest, depth(inner, level + 1))
  return deepest
}
