import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, resolve, sep } from 'node:path'
import { requireBuiltFolder } from './content-folder.ts'
import { configNote, requestLog, settings } from './settings.ts'
import { mediaType } from '../content/media.ts'
import { listenHttp } from './listen.ts'
import { trimEndOf } from '../text.ts'

/** `almanac preview`: serves `out` the way a static host with the one documented rewrite would. */
export async function preview(flags: Record<string, string | boolean | undefined>): Promise<number> {
  const { config, file } = settings(flags, { port: '4173' })
  const root = config.out
  requireBuiltFolder(root)
  const listener = await listenHttp((req, res) => void answer(root, req, res), {
    port: config.port, host: config.host, exact: flags.port ? '--port' : false, log: requestLog(flags), warn: (line) => console.error(line),
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

/** The static host's rule: a file as it is, else the same path with `.json` (query strings ignored). */
export async function answer(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let path: string
  try {
    path = trimEndOf(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname), '/') || '/'
  } catch {
    path = '/'
  }
  for (const candidate of [path, `${path}.json`]) {
    const file = resolve(root, `.${candidate}`)
    if (!file.startsWith(root + sep)) break
    const info = await stat(file).catch(() => null)
    if (!info?.isFile()) continue
    const type = extname(file) === '.json' ? 'application/json; charset=UTF-8' : (mediaType(file) ?? 'application/octet-stream')
    res.writeHead(200, { 'Content-Type': type, 'Access-Control-Allow-Origin': '*', 'Content-Length': info.size })
    res.end(req.method === 'HEAD' ? undefined : await readFile(file))
    return
  }
  res.writeHead(404, { 'Content-Type': 'application/json; charset=UTF-8' })
  res.end(JSON.stringify({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }))
}
