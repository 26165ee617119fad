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
    const body = readFileSync(route.bodyFile)
    // A new Response per request, as any h3 handler would build; the bytes themselves are shared.
    app.get(route.path, () => new Response(body, { headers: { 'content-type': route.contentType } }))
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
