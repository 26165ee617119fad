import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { createApp } from '../app.ts'
import type { Store } from '../content/store.ts'
import type { Site } from '../serialize/context.ts'
import { fileFor, staticUrl, type Layout } from './layout.ts'
import { hostFiles } from './host-files.ts'
import { publicUrls } from './urls.ts'

export interface BuildOptions {
  store: Store
  site: Site
  /** The output folder; the build writes nowhere else. */
  out: string
  /** The base URL `out` is served from. */
  publicUrl: string
  perPage: number
  maxPerPage: number
  now?: () => number
  onProgress?: (done: number, total: number) => void
}

/** What a build did. */
export interface BuildResult {
  files: number
  bytes: number
  written: number
  removed: number
  ms: number
}

interface ManifestEntry {
  bytes: number
  sha256: string
}

const MANIFEST = 'manifest.json'

/**
 * Renders every public GET into `out` by asking the app for it (the static answers cannot
 * disagree with the live ones), links rewritten to the static files. Files whose content did not
 * change are left alone; files no longer public are removed.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now()
  const out = resolve(options.out)
  const layout: Layout = { publicUrl: options.publicUrl.replace(/\/+$/, ''), liveUrl: options.site.url, apiRoot: options.site.apiRoot, defaultLang: options.site.defaultLang, defaultPerPage: options.perPage }
  // An app of its own, without users: every answer is what an anonymous caller gets, public only.
  const app = createApp({ store: options.store, site: options.site, perPage: options.perPage, maxPerPage: options.maxPerPage, fallback: options.store.fallback, ...(options.now ? { now: options.now } : {}) })
  const previous = await readManifest(out)
  const manifest: Record<string, ManifestEntry> = {}
  const urls = await publicUrls(app, options.store, { liveUrl: options.site.url, apiRoot: options.site.apiRoot, defaultLang: options.site.defaultLang, perPage: options.perPage, bulkPerPage: 50 })
  let written = 0
  let bytes = 0
  const put = async (file: string, content: string | Buffer) => {
    const data = typeof content === 'string' ? Buffer.from(content) : content
    const entry = { bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') }
    manifest[file] = entry
    bytes += data.length
    if (previous[file]?.sha256 === entry.sha256) return
    await replaceFile(out, file, data)
    written++
  }
  for (const [i, url] of urls.entries()) {
    const response = await app.fetch(new Request(url))
    const text = await response.text()
    // Only what anyone may read: a 403 (a protected event) or a 404 has no file.
    if (response.status === 200) await put(fileFor(layout, new URL(url)), rewriteLinks(layout, text))
    options.onProgress?.(i + 1, urls.length)
  }
  for (const media of options.store.media.all()) await put(`media/${media.file}`, await readFile(join(options.store.dir, 'media', media.file)))
  for (const [file, content] of Object.entries(hostFiles(options.site))) await put(file, content)
  let removed = 0
  for (const file of Object.keys(previous)) {
    if (manifest[file]) continue
    await rm(inside(out, file), { force: true })
    removed++
  }
  await replaceFile(out, MANIFEST, Buffer.from(`${JSON.stringify({ generated: new Date().toISOString(), public_url: layout.publicUrl, files: manifest }, null, 1)}\n`))
  return { files: Object.keys(manifest).length, bytes, written, removed, ms: Math.round(performance.now() - started) }
}

/** Links into the live API become links to the static files, in the JSON text itself. */
function rewriteLinks(layout: Layout, text: string): string {
  const live = `${layout.liveUrl}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const pattern = new RegExp(`"(${live}(?:/(?:zh-hans|en|ms|ta))?${layout.apiRoot}/calendar/events/v1(?:[/?][^"]*)?)"`, 'g')
  return text.replace(pattern, (_, url: string) => JSON.stringify(staticUrl(layout, url)))
}

/** Replaces a file by renaming a complete temporary one over it: no reader ever sees half a file. */
async function replaceFile(out: string, file: string, data: Buffer): Promise<void> {
  const target = inside(out, file)
  await mkdir(dirname(target), { recursive: true })
  const temporary = join(dirname(target), `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
  await writeFile(temporary, data)
  await rename(temporary, target)
}

/** A path inside the output folder; anything that would escape it is refused. */
function inside(out: string, file: string): string {
  const target = resolve(out, file)
  if (target !== out && !target.startsWith(out + sep)) throw new Error(`refusing to write outside ${out}: ${file}`)
  return target
}

async function readManifest(out: string): Promise<Record<string, ManifestEntry>> {
  try {
    const data = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as { files?: Record<string, ManifestEntry> }
    return data.files ?? {}
  } catch {
    return {}
  }
}

