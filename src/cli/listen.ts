import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { CliError } from './errors.ts'

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
}

const ALTERNATIVES = 100
const GRACE_MS = 3_000

/**
 * Node's own HTTP server. listhen wrapped it with http-shutdown 1.2.2, whose 'finish' listener sets
 * `req.socket._isIdle` unguarded. When the body limit cancels a request's stream, Node's web-stream
 * adapter destroys the request and sets `req.socket` to null; the 413 that follows then threw a
 * TypeError outside any request and ended the process. Node closes connections itself
 * (`closeIdleConnections`, `closeAllConnections`), so no wrapper is needed.
 */
export async function listenHttp(handler: (req: IncomingMessage, res: ServerResponse) => void, options: ListenOptions): Promise<Listening> {
  const server = createServer(handler)
  const last = options.exact || options.port === 0 ? options.port : options.port + ALTERNATIVES
  for (let port = options.port; ; port++) {
    const error = await tryListen(server, port, options.host)
    if (!error) break
    if (error.code !== 'EADDRINUSE' || port >= last) {
      throw new CliError(`cannot listen on ${options.host}:${options.port}: ${error.message}`)
    }
  }
  return { server, port: (server.address() as { port: number }).port, close: () => closeServer(server) }
}

function tryListen(server: Server, port: number, host: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((done) => {
    const failed = (error: NodeJS.ErrnoException) => done(error)
    server.once('error', failed)
    try {
      server.listen(port, host, () => {
        server.off('error', failed)
        done(null)
      })
    } catch (error) {
      server.off('error', failed)
      done(error as NodeJS.ErrnoException)
    }
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    const force = setTimeout(() => server.closeAllConnections(), GRACE_MS)
    server.close(() => {
      clearTimeout(force)
      done()
    })
    server.closeIdleConnections()
  })
}
