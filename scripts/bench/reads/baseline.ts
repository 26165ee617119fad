// Child process: a bare h3 app answering fixed bytes, the ceiling Almanac's throughput is compared to.
// It runs in its own process so it never shares an event loop with autocannon.
// Usage: node --import tsx scripts/bench/baseline.ts <manifest.json>
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { H3, toNodeHandler } from 'h3'

/** One canned route: the path it answers and the exact bytes and type Almanac returned for it. */
export interface BaselineRoute {
  path: string
  contentType: string
  bodyFile: string
}

/** Starts the bare server on a free loopback port and prints `baseline listening on <port>`. */
export function startBaseline(routes: BaselineRoute[]): void {
  const app = new H3()
  for (const route of routes) {
    const body = new Uint8Array(readFileSync(route.bodyFile))
    // Returning the bytes is h3's own fast path (srvx's FastResponse). A handler that builds a global
    // `new Response()` instead runs about 2-3x slower here, which would hide framework overhead in the ceiling.
    app.get(route.path, (event) => {
      event.res.headers.set('content-type', route.contentType)
      return body
    })
  }
  const server = createServer(toNodeHandler(app))
  server.listen(0, '127.0.0.1', () => {
    console.log(`baseline listening on ${(server.address() as AddressInfo).port}`)
  })
  const stop = () => server.close(() => process.exit(0))
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

const manifest = process.argv[2]
if (manifest) startBaseline(JSON.parse(readFileSync(manifest, 'utf8')) as BaselineRoute[])
