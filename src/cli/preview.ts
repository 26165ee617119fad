import { type FileHandle, open, realpath, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, resolve, sep } from 'node:path'
import { pipeline } from 'node:stream'
import { requireBuiltFolder } from './content-folder.ts'
import { configNote, requestLog, settings } from './settings.ts'
import { mediaType } from '../content/store/media.ts'
import { listenHttp } from './listen.ts'
import { trimEndOf } from '../text.ts'
import { headersFor, readHostRules, rewrite, type HostRules } from './static-host.ts'

/** `almanac preview`: serves `out` the way a static host with the one documented rewrite would. */
export async function preview(flags: Record<string, string | boolean | undefined>): Promise<number> {
  const { config, file } = settings(flags, { port: '4173' })
  const root = config.out
  requireBuiltFolder(root)
  const rules = await readHostRules(root)
  const listener = await listenHttp((req, res) => void answer(root, req, res, rules), {
    port: config.port,
    host: config.host,
    exact: flags.port ? '--port' : false,
    log: requestLog(flags),
    warn: (line) => console.error(line),
  })
  console.log(`Previewing ${root} at http://${config.host}:${listener.port}`)
  console.log(`  ➜ ${configNote(file)}`)
  await new Promise<void>((done) => {
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
  })
  await listener.close()
  return 0
}

/**
 * What a static host answers: the file at the path, else where `_redirects` rewrites it, else the
 * path with `.json`; with the headers `_headers` gives the path. Query strings are ignored, and a
 * file reached through a symbolic link that leads out of `root` is not served. Never rejects: a file removed
 * between its lookup and its read (a build removing what is no longer public) is answered as a host would.
 */
export async function answer(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  rules: HostRules = { headers: [], rewrites: [] },
): Promise<void> {
  try {
    await serveFile(root, req, res, rules)
  } catch {
    if (res.headersSent) res.destroy()
    else notFound(res)
  }
}

async function serveFile(root: string, req: IncomingMessage, res: ServerResponse, rules: HostRules): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return notFound(res, 405)
  let path: string
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
  } catch {
    path = '/'
  }
  // The URL parser resolved the dot segments it saw; these came encoded (`..%2f_headers`, `%2f_headers`), and a host
  // takes no path through them: the rules below are matched on the path as written, which must be the file's.
  if (/(^|\/)\.\.?(\/|$)|\/\/|[\\\0]/.test(path)) return notFound(res)
  const bare = trimEndOf(path, '/') || '/'
  // A host reads its rules from these files and serves neither.
  if (HOST_FILES.has(bare)) return notFound(res)
  const candidates = [bare, rewrite(rules.rewrites, path), `${bare}.json`].filter((c): c is string => c !== undefined)
  for (const candidate of candidates) {
    const file = await servable(root, candidate)
    if (!file) continue
    const headers = headersFor(rules.headers, path)
    // As a host does: the type `_headers` gives the path (a feed's `text/calendar`), else the file's own.
    const type =
      headers['Content-Type'] ??
      (extname(file.path) === '.json'
        ? 'application/json; charset=UTF-8'
        : extname(file.path) === '.ics'
          ? 'text/calendar; charset=utf-8'
          : (mediaType(file.path) ?? 'application/octet-stream'))
    res.writeHead(200, {
      ...headers,
      'Content-Type': type,
      'Access-Control-Allow-Origin': '*',
      'Content-Length': file.size,
    })
    if (req.method === 'HEAD' || file.size === 0) {
      await file.handle.close()
      res.end()
      return
    }
    // Streamed from the file opened for its size (read whole, a file of gigabytes failed the process), the bytes
    // measured and no more: a file a build writes or cuts meanwhile ends the connection rather than break the length
    // the head gave. A client gone closes the file.
    const stream = file.handle.createReadStream({ start: 0, end: file.size - 1 })
    stream.on('end', () => {
      if (stream.bytesRead < file.size) res.destroy()
    })
    pipeline(stream, res, () => {})
    return
  }
  notFound(res)
}

/** The files a host reads its rules from. */
const HOST_FILES = new Set(['/_headers', '/_redirects'])

function notFound(res: ServerResponse, status: 404 | 405 = 404): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=UTF-8',
    ...(status === 405 ? { Allow: 'GET, HEAD' } : {}),
  })
  res.end(
    JSON.stringify({
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method.',
      data: { status },
    }),
  )
}

/**
 * The regular file `path` names inside `root` (links followed only while they stay inside), opened, with its size;
 * null when there is none. Opened before it is measured, so the size is the bytes that will be read.
 */
async function servable(
  root: string,
  path: string,
): Promise<{ path: string; size: number; handle: FileHandle } | null> {
  const file = resolve(root, `.${path}`)
  if (!file.startsWith(root + sep)) return null
  const real = await realpath(file).catch(() => null)
  const realRoot = await realpath(root).catch(() => root)
  if (!real?.startsWith(realRoot + sep)) return null
  // A regular file before it is opened: opening a FIFO would wait for a writer.
  if (!(await stat(real).catch(() => null))?.isFile()) return null
  const handle = await open(real, 'r').catch(() => null)
  if (!handle) return null
  const info = await handle.stat().catch(() => null)
  if (info?.isFile()) return { path: real, size: info.size, handle }
  await handle.close()
  return null
}
