import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { listen } from 'listhen'
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
  /** A port the user asked for is theirs or nothing; otherwise the next free one of the following 100 will do. */
  exact: boolean
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
  const listener = await listen(handle, {
    port: options.port,
    // listhen's production mode tries only the port given; port 0 asks for any free port, which that mode would turn into 3000.
    isProd: options.exact && options.port !== 0,
    // Test mode only keeps get-port from printing "[get-port] …" itself; a moved port is said below.
    isTest: true,
    hostname: options.host,
    showURL: false,
    autoClose: false,
    qr: false,
  }).catch((error: Error) => {
    throw new CliError(`cannot listen on ${options.host}:${options.port}: ${error.message}`)
  })
  const server = listener.server as Server
  guardIdleBookkeeping(server, handle)
  const close = async () => {
    const force = setTimeout(() => server.closeAllConnections(), GRACE_MS)
    await listener.close()
    clearTimeout(force)
  }
  const port = (listener.address as { port: number }).port
  if (options.port !== 0 && port !== options.port) options.warn?.(`almanac: port ${options.port} is busy; serving on ${port}`)
  return { server, port, close }
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
