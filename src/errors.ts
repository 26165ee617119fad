import { HTTPError } from 'h3'

/** Every error code the API emits, with its status and message, as the reference and WordPress send them. */
const CATALOGUE = {
  rest_no_route: [404, 'No route was found matching the URL and request method.'],
  rest_missing_callback_param: [400, 'Missing parameter(s): %s'],
  rest_invalid_param: [400, 'Invalid parameter(s): %s'],
  rest_invalid_json: [400, 'Invalid JSON body passed.'],
  rest_forbidden: [403, 'Sorry, you are not allowed to do that.'],
  rest_cannot_edit_others: [403, 'Sorry, you are not allowed to %s posts as this user.'],
  incorrect_password: [401, 'The provided password is an invalid application password.'],
  too_many_login_attempts: [429, 'Too many failed login attempts. Try again later.'],
  rest_invalid_url: [400, 'The request URL is malformed.'],
  rest_payload_too_large: [413, 'The request body is too large.'],
  rest_too_many_fields: [400, 'The request body has more than 1,000 fields.'],
  'precondition-failed': [412, 'The record has changed since it was read.'],
  'rest-event-not-found': [404, 'Event with ID %s does not exist.'],
  'rest-invalid-event-id': [400, 'The specified ID is not a valid event.'],
  'event-no-longer-available': [403, 'This event is no longer available'],
  'event-not-accessible': [403, 'The requested event is not accessible'],
  'event-password-protected': [403, 'The requested event is not accessible without a password'],
  'event-archive-page-not-found': [404, 'The requested event archive page does not exist'],
  'venue-not-accessible': [403, 'The requested venue is not accessible'],
  'organizer-not-accessible': [403, 'The requested organizer is not accessible'],
  'venue-archive-page-not-found': [404, 'The requested venue archive page does not exist'],
  'organizer-archive-page-not-found': [404, 'The requested organizer archive page does not exist'],
  'could-not-create-venue': [400, 'The venue could not be created from the provided data'],
  'could-not-create-organizer': [400, 'The organizer could not be created from the provided data'],
  'event-is-in-trash': [410, 'The event is already trashed'],
  'venue-is-in-trash': [410, 'The venue is already trashed'],
  'organizer-is-in-trash': [410, 'The organizer is already trashed'],
  rest_taxonomy_not_hierarchical: [400, 'Cannot set parent term, taxonomy is not hierarchical.'],
  internal_server_error: [500, 'The server could not answer this request.'],
  // Refused by Node's HTTP parser before any route (src/http/client-error.ts).
  rest_bad_request: [400, 'The request is not valid HTTP.'],
  rest_headers_too_large: [431, 'The request headers are too large.'],
  rest_request_timeout: [408, 'The request did not arrive in time.'],
} as const satisfies Record<string, readonly [number, string]>

export type ErrorCode = keyof typeof CATALOGUE

/** The JSON body of every error: `{code, message, data}`, WordPress's envelope. */
export interface ErrorBody {
  code: string
  message: string
  data: Record<string, unknown> | null
  additional_data?: unknown[]
}

/**
 * How an error's envelope departs from the usual: no `data` at all, or extra data blobs, as WordPress does
 * for some errors.
 */
export interface EnvelopeOptions {
  /** WordPress errors that carry no status come out as 500 with `data: null`. */
  nullData?: boolean
  additional?: unknown[]
  /** Headers the error answer carries (412 carries the current ETag). */
  headers?: Record<string, string>
}

/** An API error; thrown by handlers and turned into the envelope by the app. */
export class ApiError extends HTTPError {
  readonly code: string
  readonly extra: Record<string, unknown>
  readonly envelope: EnvelopeOptions

  constructor(
    code: string,
    status: number,
    message: string,
    extra: Record<string, unknown> = {},
    envelope: EnvelopeOptions = {},
  ) {
    // A caller's mistake is answered, never logged: no stack is taken. Taking one, through the request's async frames,
    // was most of the CPU of a 400 or 404 (~11 of ~70 µs; under wrk, pinned).
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    try {
      super({ status, message })
    } finally {
      Error.stackTraceLimit = limit
    }
    this.code = code
    this.extra = extra
    this.envelope = envelope
  }

  /** The response body: `data.status` first, then whatever the code carries. */
  toBody(): ErrorBody {
    const body: ErrorBody = {
      code: this.code,
      message: this.message,
      data: this.envelope.nullData ? null : { status: this.status, ...this.extra },
    }
    if (this.envelope.additional) body.additional_data = this.envelope.additional
    return body
  }
}

/** Makes the error for a catalogue code; `args` fill the `%s` in its message. */
export function apiError(code: ErrorCode, args: string[] = [], extra: Record<string, unknown> = {}): ApiError {
  const [status, template] = CATALOGUE[code]
  return new ApiError(code, status, template.replace('%s', args.join(', ')), extra)
}

/** 429 after too many failed logins, with `Retry-After` in whole seconds. */
export function tooManyLoginAttempts(waitMs: number): ApiError {
  const [status, message] = CATALOGUE.too_many_login_attempts
  return new ApiError(
    'too_many_login_attempts',
    status,
    message,
    {},
    { headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) } },
  )
}

/** One failed parameter: the message for `params` and, for type errors, a `details` entry. */
export interface ParamIssue {
  message: string
  detail?: { code: string; message: string; data: Record<string, unknown> }
}

/** 400 `rest_invalid_param` naming every failed parameter (WordPress's validation steps). */
export function invalidParams(issues: Record<string, ParamIssue>): ApiError {
  const names = Object.keys(issues)
  const params: Record<string, string> = {}
  const details: Record<string, unknown> = {}
  for (const name of names) {
    params[name] = issues[name]!.message
    if (issues[name]!.detail) details[name] = issues[name]!.detail
  }
  // WordPress sends an empty JSON array, not an object, when no check explained itself.
  const detailValue = Object.keys(details).length > 0 ? details : []
  return apiError('rest_invalid_param', names, { params, details: detailValue })
}

/** 400 `rest_invalid_param` for one parameter that failed its check. */
export function invalidParam(name: string, message = 'Invalid parameter.'): ApiError {
  return invalidParams({ [name]: { message } })
}

/**
 * A record made inline (an event's new venue, organizers, categories or tags) refused as the parameter the client
 * sent, `name`, its messages kept: the record's own field (`address`, a term's `name`) is no parameter of the write.
 */
export function asParam(name: string, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.code !== 'rest_invalid_param') return error
  return invalidParam(name, Object.values((error.extra.params ?? {}) as Record<string, string>).join(' '))
}
