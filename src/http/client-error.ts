import type { Socket } from 'node:net'
import { apiError, type ErrorCode } from '../errors.ts'

// What Node's HTTP parser refuses (an unknown method, headers past its limit, a request that never arrives whole)
// reaches no route: Node answers it with a bare status line. These answer it in the envelope every other error has.
const REFUSED: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'rest_headers_too_large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'rest_payload_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'rest_request_timeout',
}
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
}

/**
 * A server's `clientError` listener, as Node's own answer but in JSON: the error's envelope, unless the response in
 * flight on the connection has begun (its head sent: another answer would corrupt it), then the connection ended,
 * as the parser cannot go on reading it. A connection that served answers before is answered as a new one is.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Socket & { _httpMessage?: { _headerSent?: boolean } | null },
): void {
  if (socket.writable && !socket._httpMessage?._headerSent) {
    const refused = apiError(REFUSED[error.code ?? ''] ?? 'rest_bad_request')
    const body = JSON.stringify(refused.toBody())
    const head = [
      `HTTP/1.1 ${refused.status} ${REASONS[refused.status]}`,
      'Content-Type: application/json; charset=UTF-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ]
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`)
  }
  socket.destroy()
}
