import type { ServerResponse } from 'node:http'

/**
 * A response body: a text, bytes, or bytes in parts. An event list is the concatenation of its events' memoized
 * JSON; joining them into a fresh buffer for every answer (a new 60–300 KB allocation, page faults and all) cost
 * more than the query, so the parts go to Node as they are, corked into one write (one `writev`).
 */
export type Body = string | Uint8Array | readonly Uint8Array[]

/** The bytes a body of bytes or parts holds. */
export function byteLengthOf(body: Uint8Array | readonly Uint8Array[]): number {
  if (body instanceof Uint8Array) return body.byteLength
  let length = 0
  for (const part of body) length += part.byteLength
  return length
}

/** The bytes a body holds, a text's as UTF-8. */
export function bodyBytes(body: Body): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : byteLengthOf(body)
}

/** A body as one text or buffer: parts joined (where no Node response takes them, as in `app.fetch`). */
export function joined(body: Body): string | Uint8Array {
  return typeof body === 'string' || body instanceof Uint8Array ? body : Buffer.concat(body)
}

/** Writes parts as the rest of a response whose head is written (or set), and ends it: one corked write. */
export function writeParts(res: ServerResponse, parts: readonly Uint8Array[]): void {
  res.cork()
  for (const part of parts) res.write(part)
  // end() uncorks fully: the head and every part leave in one writev.
  res.end()
}

/**
 * Parts as srvx's Node adapter takes a body it can pipe: it writes the head (the headers must carry the
 * Content-Length, which srvx adds only to bytes it can measure), then hands over the response.
 */
export class PartsPipe {
  constructor(readonly parts: readonly Uint8Array[]) {}
  pipe(res: ServerResponse): ServerResponse {
    writeParts(res, this.parts)
    return res
  }
}
