// The static build of the generated tree, timed: a full build, then edits of one event until its files are current.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createSiteBuilder } from '../../../src/prerender/site-builder.ts'
import { createStore, type ContentRecord } from '../../../src/content/store.ts'

/** What the static build of the generated tree measured. */
export interface BuildRun {
  files: number
  bytes: number
  fullMs: number
  /** Touching one event's file until its files are current in the output, per edit. */
  oneEventMs: number[]
  written: number[]
}

export const BUILD_BUDGETS = { fullMs: 20_000, oneEventMs: 1_000 }

const SITE = {
  url: 'http://localhost:3000',
  host: 'localhost',
  apiRoot: '/wp-json',
  timezone: 'Asia/Singapore',
  defaultLang: 'en' as const,
  currency: 'SGD',
  currencySymbol: 'S$',
  currencyPosition: 'prefix' as const,
}

/** A full build of the content into `out`, then `edits` edits of one event file, each timed until the output is current. */
export async function measureBuild(content: string, out: string, edits: number, workers?: number): Promise<BuildRun> {
  const store = await createStore(content, { defaultLanguage: 'en', fallback: true })
  const builder = createSiteBuilder({
    store,
    site: SITE,
    out,
    publicUrl: 'https://cdn.example.org',
    perPage: 9,
    maxPerPage: 50,
    ...(workers === undefined ? {} : { workers }),
  })
  const full = await builder.full()
  const changes: [ContentRecord | undefined, ContentRecord | undefined][] = []
  store.onChange((before, after) => changes.push([before, after]))
  const event = store.list('events')[Math.floor(store.list('events').length / 2)]!
  const oneEventMs: number[] = []
  const written: number[] = []
  for (let i = 0; i < edits; i++) {
    const path = join(content, event.source.path)
    const text = await readFile(path, 'utf8')
    const started = performance.now()
    await writeFile(path, text.replace(/^title: .*$/m, `title: Build bench edit ${i}`))
    // What the watcher does with a touched file, then what `build --watch` does with the change.
    await store.reload([event.source.path])
    const result = await builder.update(changes.splice(0))
    oneEventMs.push(performance.now() - started)
    written.push(result.written)
  }
  return { files: full.files, bytes: full.bytes, fullMs: full.ms, oneEventMs, written }
}

/** The report section of the build. */
export function formatBuild(run: BuildRun): string {
  const sorted = [...run.oneEventMs].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0
  const mark = (ok: boolean) => (ok ? '✓' : '✗')
  return [
    'Static build of the generated tree (a full build into an empty folder, then edits of one event)',
    `full build: ${run.files.toLocaleString('en')} files, ${(run.bytes / 1024 ** 2).toFixed(0)} MB, ${(run.fullMs / 1000).toFixed(1)} s  (<= 20 s ${mark(run.fullMs <= BUILD_BUDGETS.fullMs)})`,
    `one event touched -> its files current: median ${median.toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms over ${sorted.length} edits, ` +
      `${run.written.join('/')} files written  (<= 1 s ${mark(median <= BUILD_BUDGETS.oneEventMs)})`,
  ].join('\n')
}
