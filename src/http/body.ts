import type { H3Event } from 'h3'
import { ApiError, apiError } from '../errors.ts'
import { parseQuery } from '../schema/params.ts'

/** Bodies above this are refused with 413 before they are read whole. */
export const BODY_LIMIT = 1024 * 1024
const MAX_DEPTH = 32

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
  if (/application\/x-www-form-urlencoded/i.test(type) || type === '') return parseQuery(new URLSearchParams(text))
  return {}
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
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ApiError('rest_invalid_json', 400, 'Invalid JSON body passed.', {
      json_error_code: 4,
      json_error_message: (error as Error).message,
    })
  }
  if (depth(value) > MAX_DEPTH) {
    throw new ApiError('rest_invalid_json', 400, 'Invalid JSON body passed.', {
      json_error_code: 1,
      json_error_message: `Maximum nesting depth of ${MAX_DEPTH} exceeded`,
    })
  }
  // A JSON body that is not an object names no parameters, as in WordPress.
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function depth(value: unknown, level = 0): number {
  if (level > MAX_DEPTH || value === null || typeof value !== 'object') return level
  let deepest = level
  for (const inner of Object.values(value as object)) deepest = Math.max(deepest, depth(inner, level + 1))
  return deepest
}
