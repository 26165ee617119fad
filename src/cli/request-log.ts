import type { IncomingMessage, ServerResponse } from 'node:http'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** Query parameters whose values never reach the log (an event's password, tokens, keys). */
const SECRET = /pass|pwd|token|secret|auth|key/i

/** Wraps a Node handler so that every request, once answered (or abandoned), is one line of `log`. */
export function withRequestLog(handler: Handler, log: (line: string) => void): Handler {
  return (req, res) => {
    const started = performance.now()
    let logged = false
    const done = () => {
      if (logged) return
      logged = true
      const status = res.writableFinished ? String(res.statusCode) : 'aborted'
      log(requestLine(req.method ?? '', req.url ?? '', status, performance.now() - started))
    }
    res.once('finish', done)
    res.once('close', done)
    handler(req, res)
  }
}

/** `GET /path?q=x 200 3 ms`: secrets in the query replaced by ***, every unprintable character escaped. */
export function requestLine(method: string, url: string, status: string, ms: number): string {
  return `${printable(method)} ${printable(redacted(url))} ${status} ${Math.round(ms)} ms`
}

/** The URL with the value of every secret-looking query parameter replaced by `***`. */
export function redacted(url: string): string {
  const at = url.indexOf('?')
  if (at < 0) return url
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      return SECRET.test(decoded(eq < 0 ? pair : pair.slice(0, eq))) ? `${eq < 0 ? pair : pair.slice(0, eq)}=***` : pair
    })
  return `${url.slice(0, at)}?${query.join('&')}`
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/** Printable ASCII stays; anything else (control characters, a backslash, non-ASCII) becomes \xNN or \uNNNN. */
export function printable(text: string): string {
  return text.replace(/[^\x21-\x5b\x5d-\x7e]/g, (char) => {
    const code = char.charCodeAt(0)
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}
