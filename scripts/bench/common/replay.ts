// Child process: the limit. Bare node:http replaying, for each path, the exact status, headers and body Almanac
// sent for it; every other path is a 404. Nothing else runs per request: a map lookup, writeHead, end.
// Usage: node --import tsx scripts/bench/common/replay.ts <manifest.json>
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ReplayManifest } from './capture.ts'

interface Route {
  status: number
  headers: string[]
  body: Buffer
}

/** The book's answers by path, their bodies views into one buffer read at start. */
function routes(manifest: ReplayManifest): Map<string, Route> {
  const bodies = readFileSync(manifest.bodyFile)
  const map = new Map<string, Route>()
  for (const e of manifest.entries)
    map.set(e.path, { status: e.status, headers: e.headers, body: bodies.subarray(e.offset, e.offset + e.length) })
  return map
}

const manifest = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ReplayManifest
const map = routes(manifest)
const server = createServer((req, res) => {
  const route = map.get(req.url ?? '')
  if (!route) {
    res.writeHead(404, { 'content-length': 0 }).end()
    return
  }
  res.writeHead(route.status, route.headers)
  res.end(route.body)
})
server.listen(0, '127.0.0.1', () => console.log(`replay listening on ${(server.address() as AddressInfo).port}`))
const stop = () => server.close(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
