import type { Duplex } from 'node:stream'
import { apiError, type ErrorCode } from '../errors.ts'

// What Node's HTTP parser refuses (an unknown method, headers past its limit, a request that never arrives whole)
// reaches no route: Node answers it with a bare status line. These answer it in the envelope every other error has.
const REFUSED: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'rest_headers_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'rest_request_timeout',
}
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
}

/**
 * A server's `clientError` listener: the error's envelope when nothing was sent on the connection yet, then the
 * connection closed (Node's own answer, in JSON), as the parser cannot go on reading it.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex & { bytesWritten?: number }): void {
  if (!socket.writable || (socket.bytesWritten ?? 0) > 0) {
    socket.destroy()
    return
  }
  const refused = apiError(REFUSED[error.code ?? ''] ?? 'rest_bad_request')
  const body = JSON.stringify(refused.toBody())
  const head = [
    `HTTP/1.1 ${refused.status} ${REASONS[refused.status]}`,
    'Content-Type: application/json; charset=UTF-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ]
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
}
