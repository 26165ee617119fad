import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer, type Socket } from 'node:net'
import { listen } from 'listhen'
import { answerClientError } from '../http/client-error.ts'
import { CliError } from './errors.ts'
import { withRequestLog } from './request-log.ts'

export interface Listening {
  server: Server
  port: number
  /** Stops accepting, lets answers under way finish (up to a grace period), then closes every connection. */
  close(): Promise<void>
}

export interface ListenOptions {
  port: number
  host: string
  /**
   * How the user named the port (`--port`, `ALMANAC_PORT`): then it is theirs or nothing. When false
   * the port is only a default, and the next free one of the following 100 will do.
   */
  exact: string | false
  /** Hears one line per request (method, path, status, duration); none when absent (--quiet). */
  log?: (line: string) => void
  /** Hears, in Almanac's words, that the port asked for was busy and another one was taken. */
  warn?: (line: string) => void
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void

const GRACE_MS = 3_000

/** Listens with listhen: its port rules (an exact port or nothing; port 0 for any), and its graceful close. */
export async function listenHttp(handler: Handler, options: ListenOptions): Promise<Listening> {
  const handle = options.log ? withRequestLog(handler, options.log) : handler
  const exact = options.exact !== false && options.port !== 0
  const listener = await listen(handle, {
    // A default that is busy moves up from itself (4173 to 4174), never to get-port's own 3000–3100.
    port:
      exact || options.port === 0
        ? options.port
        : { port: options.port, portRange: above(options.port), alternativePortRange: above(options.port) },
    // listhen's production mode tries only the port given; port 0 asks for any free port, which that mode
    // would turn into 3000.
    isProd: exact,
    // Test mode only keeps get-port from printing "[get-port] …" itself; a moved port is said below.
    isTest: true,
    hostname: options.host,
    showURL: false,
    autoClose: false,
    qr: false,
  }).catch(async (error: Error & { code?: string }) => {
    const code = error.code ?? (error.name === 'GetPortError' ? await bindError(options.port, options.host) : undefined)
    if (exact && code === 'EADDRINUSE') {
      throw new CliError(
        `port ${options.port} is in use (given with ${options.exact}); choose another or stop what holds it`,
      )
    }
    throw new CliError(`cannot listen on ${options.host}:${options.port}: ${code ?? error.message}`)
  })
  const server = listener.server as Server
  guardIdleBookkeeping(server, handle)
  server.on('clientError', answerClientError)
  const close = async () => {
    const force = setTimeout(() => server.closeAllConnections(), GRACE_MS)
    await listener.close()
    clearTimeout(force)
  }
  const port = (listener.address as { port: number }).port
  if (options.port !== 0 && port !== options.port)
    options.warn?.(`almanac: port ${options.port} is busy; serving on ${port}`)
  return { server, port, close }
}

/** Why `port` cannot be bound on `host` (EADDRINUSE, EACCES…): get-port only says it found none. */
function bindError(port: number, host: string): Promise<string | undefined> {
  return new Promise((done) => {
    const probe = createServer()
    probe.once('error', (error: Error & { code?: string }) => done(error.code))
    probe.listen(port, host, () => probe.close(() => done(undefined)))
  })
}

/** The 100 ports after `port`, where a busy default moves to. */
function above(port: number): [number, number] {
  return [port + 1, Math.min(port + 100, 65_535)]
}

/**
 * listhen wraps the server with http-shutdown 1.2.2, whose 'finish' listener sets `req.socket._isIdle`
 * unguarded. When the body limit cancels a request's stream, Node's web-stream adapter destroys the
 * request and sets `req.socket` to null, so the 413 that followed threw a TypeError outside any
 * request and ended the process. The same bookkeeping is kept on the socket held from the start.
 */
function guardIdleBookkeeping(server: Server, handler: Handler): void {
  for (const listener of server.listeners('request')) {
    if (listener !== handler) server.off('request', listener as Handler)
  }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as Socket & { _isIdle?: boolean }
    socket._isIdle = false
    res.once('finish', () => {
      socket._isIdle = true
    })
  })
}
