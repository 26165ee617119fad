import type { H3Event, HTTPError } from 'h3'
import { FastResponse } from 'srvx'
import type { Caller } from '../auth/roles.ts'
import type { Site } from '../context/site.ts'
import { ApiError, apiError } from '../errors.ts'
import { baseHeaders, PRIVATE } from './respond.ts'

/** `rest_forbidden`: 401 for nobody, 403 for a caller without the right (docs/compatibility.md §3). */
export function forbidden(caller: Caller | null): ApiError {
  const error = apiError('rest_forbidden')
  return caller ? error : new ApiError(error.code, 401, error.message)
}

/** Every failure becomes the WordPress envelope; unexpected ones are logged once and hidden. */
export function errorResponse(error: HTTPError, event: H3Event, site: Site, log: (message: string) => void): Response {
  const api = toApiError(error, event, log)
  const allow = event.context.allow as string[] | undefined
  const headers = {
    ...baseHeaders({ site, origin: event.req.headers.get('origin'), ...(allow ? { allow } : {}) }),
    ...api.envelope.headers,
  }
  if (event.context.authenticated) Object.assign(headers, PRIVATE)
  const text = JSON.stringify(api.toBody())
  // srvx's FastResponse, as respond.ts answers: a web Response cost ~5 times the CPU of the whole answer.
  if (event.req.method !== 'HEAD') return new FastResponse(text, { status: api.status, headers })
  // As respond.ts: the length a GET would send.
  return new FastResponse(null, {
    status: api.status,
    headers: { ...headers, 'Content-Length': String(Buffer.byteLength(text)) },
  })
}

/** The API error a failure stands for: its own, h3's 404 and 400, else a logged 500. */
function toApiError(error: HTTPError, event: H3Event, log: (message: string) => void): ApiError {
  const cause = error.cause
  if (error instanceof ApiError) return error
  if (cause instanceof ApiError) return cause
  if (error.status === 404 && !error.unhandled) return apiError('rest_no_route')
  if (error.status === 400 && !error.unhandled) return apiError('rest_invalid_url')
  log(`${event.req.method} ${event.url.pathname}: ${(cause as Error)?.stack ?? error.stack ?? error.message}`)
  return apiError('internal_server_error')
}
