import type { IncomingMessage, ServerResponse } from 'node:http'
import type { H3Event } from 'h3'
import type { ServerRequest } from 'srvx'
import type { AnswerCache, KeptAnswer } from './answer-cache.ts'
import { writeParts } from './body-parts.ts'
import type { AppState } from './context.ts'
import { etagMatches } from './respond.ts'

// The front door: a request Node hands the server is first looked up, as it came off the socket, among the
// anonymous answers the app keeps; only a miss goes through h3's request objects and router (docs/architecture.md §3).

/** A Node request handler, as `node:http` calls it. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void

/**
 * A request as the front door knows it: its target and `Origin` exactly as sent. Undefined for anything but an
 * anonymous GET: a request with `Authorization` always goes through the router, and so does a HEAD (rare, and h3
 * rewrites its headers).
 */
export function rawKeyOf(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET') return undefined
  if (req.headers.authorization !== undefined) return undefined
  return `${req.url} ${req.headers.origin ?? ''}`
}

/** Notes that a request Node handed h3 is answered by the answer kept under `key`, for the front door to find. */
export function aliasNodeRequest(event: H3Event, answers: AnswerCache, key: string, version: number): void {
  const req = (event.req as ServerRequest).runtime?.node?.req as IncomingMessage | undefined
  const raw = req && rawKeyOf(req)
  if (raw !== undefined) answers.alias(raw, key, version)
}

/**
 * Node's handler for the app: a request some earlier request of the same raw form was answered from a kept answer
 * (of the same store version, still true at this time) gets that answer's bytes at once; any other goes to `next`.
 */
export function frontDoor(app: Pick<AppState, 'answers' | 'store' | 'now'>, next: NodeHandler): NodeHandler {
  const answers = app.answers
  if (!answers) return next
  return (req, res) => {
    const raw = rawKeyOf(req)
    if (raw === undefined) return next(req, res)
    const now = app.now()
    const kept = answers.findRaw(raw, app.store.version, now)
    if (kept) writeKept(req, res, kept, now)
    else next(req, res)
  }
}

/** What `deliverKept` answers, written as srvx writes a FastResponse: 304, or the 200. */
function writeKept(req: IncomingMessage, res: ServerResponse, kept: KeptAnswer, now: number): void {
  const ifNoneMatch = req.headers['if-none-match']
  if (ifNoneMatch && etagMatches(ifNoneMatch, kept.etag)) {
    res.writeHead(304, '', kept.wire().notModified)
    res.end()
  } else {
    res.writeHead(200, '', kept.wire().ok)
    const body = kept.served(now)
    if (body instanceof Uint8Array) res.end(body)
    else writeParts(res, body)
  }
}
