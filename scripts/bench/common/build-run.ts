// The static build of a generated tree, timed: a full build into an empty folder, then edits of one event file
// until its files are current, as `build --watch` would follow them.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { PerformanceObserver } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { createStore, type ContentRecord } from '../../../src/content/store.ts'
import { createSiteBuilder } from '../../../src/prerender/site-builder.ts'

/** What the static build of the generated tree measured. */
export interface BuildRun {
  files: number
  bytes: number
  /** The by-slug files: how many, their bytes, and whether the default (written while the site fits 1 GB) wrote them. */
  slugPages: { files: number; bytes: number; written: boolean } | undefined
  fullMs: number
  /**
   * CPU time of the whole process (every thread, and the kernel's work on its behalf) during the full build, in ms:
   * on a shared machine whose speed drifts, a steadier measure of a change than the wall time.
   */
  fullCpuMs: { user: number; system: number }
  /** Events the lists show (single events and occurrences of series) when the build began. */
  served: number
  /** Touching one event's file until its files are current in the output, per edit. */
  oneEventMs: number[]
  /**
   * Per edit: the build process's CPU time meanwhile (every thread, user and system) and its garbage collectors'
   * pauses, in ms. An edit much slower than its CPU waited: on the disk, or on another process of a busy machine.
   */
  oneEventCpuMs?: number[]
  oneEventGcMs?: number[]
  written: number[]
  /** With `commits`: committing each edit until the output is current (the feeds count commits), per edit. */
  commitMs?: number[]
  commitWritten?: number[]
  /** The full build's files and bytes by what they answer (every language), largest first. */
  shares: Share[]
}

/** Files and bytes of one kind of answer in the output. */
export interface Share {
  kind: string
  files: number
  bytes: number
}

/** Render threads (default: the builder's), and which event file the edits touch (default: the middle one). */
export interface BuildOptions {
  workers?: number
  edited?: (files: ContentRecord[]) => ContentRecord
  /**
   * Commit each edit too, in a repository made for the run outside the tree (GIT_DIR), when git is installed. The
   * repository is made beside the content folder and left there: the content's parent must be a scratch folder
   * that the caller removes (the run's folder, `withCorpus`).
   */
  commits?: boolean
}

/** A build for a child process to measure: `measureBuild`'s arguments, the edited file named by kind. */
export interface BuildJob {
  content: string
  out: string
  edits: number
  workers?: number
  /** Edit the middle series, when the tree has one (else the middle event, as by default). */
  editSeries?: boolean
  /** Commit each edit too (`BuildOptions.commits`). */
  commits?: boolean
}

const CHILD = fileURLToPath(new URL('./build-child.ts', import.meta.url))
/** tsx's loader, found from this file: `--import tsx` alone is looked up from the working folder. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

/**
 * `measureBuild` in a process of its own, as `almanac build` runs: the bench process that ran the read
 * sections before holds their answers and servers' bookkeeping, and a build beside them would pay for
 * that heap in every collection.
 */
export async function measureBuildApart(job: BuildJob): Promise<BuildRun> {
  const dir = await mkdtemp(join(os.tmpdir(), 'almanac-build-job-'))
  try {
    const file = join(dir, 'job.json')
    await writeFile(file, JSON.stringify(job))
    // BENCH_BUILD_NODE_ARGS: node options for the build's process alone (say `--cpu-prof --cpu-prof-dir=/tmp/p`).
    const extra = (process.env.BENCH_BUILD_NODE_ARGS ?? '').split(' ').filter(Boolean)
    const args = [...extra, '--import', TSX, CHILD, file]
    const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 24 })
    return JSON.parse(stdout.trim().split('\n').pop()!) as BuildRun
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The site the bench's builds answer for. */
export const SITE = {
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
export async function measureBuild(
  content: string,
  out: string,
  edits: number,
  { workers, edited = (files) => files[Math.floor(files.length / 2)]!, commits = false }: BuildOptions = {},
): Promise<BuildRun> {
  const git = commits ? await gitBeside(content) : undefined
  try {
    return await timedBuild(content, out, edits, workers, edited, git)
  } finally {
    git?.forget()
  }
}

async function timedBuild(
  content: string,
  out: string,
  edits: number,
  workers: number | undefined,
  edited: (files: ContentRecord[]) => ContentRecord,
  git: Git | undefined,
): Promise<BuildRun> {
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
  const served = store.events().length
  const cpu = process.cpuUsage()
  const full = await builder.full()
  const { user, system } = process.cpuUsage(cpu)
  const shares = await sharesOf(out)
  const changes: [ContentRecord | undefined, ContentRecord | undefined][] = []
  store.onChange((before, after) => changes.push([before, after]))
  const event = edited(store.list('events'))
  const oneEventMs: number[] = []
  const oneEventCpuMs: number[] = []
  const oneEventGcMs: number[] = []
  const pauses = gcPauses()
  const written: number[] = []
  const commitMs: number[] = []
  const commitWritten: number[] = []
  for (let i = 0; i < edits; i++) {
    const path = join(content, event.source.path)
    const text = await readFile(path, 'utf8')
    const paused = await pauses.total()
    const cpuBefore = process.cpuUsage()
    const started = performance.now()
    await writeFile(path, text.replace(/^title: .*$/m, `title: Build bench edit ${i}`))
    // What the watcher does with a touched file, then what `build --watch` does with the change.
    await store.reload([event.source.path])
    const result = await builder.update(changes.splice(0))
    oneEventMs.push(performance.now() - started)
    const cpu = process.cpuUsage(cpuBefore)
    oneEventCpuMs.push((cpu.user + cpu.system) / 1000)
    oneEventGcMs.push((await pauses.total()) - paused)
    written.push(result.written)
    if (!git) continue
    // The edit committed, then what `serve --build` does each minute: ask git, and build what that changed.
    await git.run(['commit', '-q', '-m', `edit ${i}`, '--', event.source.path])
    const asked = performance.now()
    await store.askGit(true)
    const committed = await builder.update(changes.splice(0))
    commitMs.push(performance.now() - asked)
    commitWritten.push(committed.written)
  }
  const { files, bytes, slugPages, ms: fullMs } = full
  const fullCpuMs = { user: user / 1000, system: system / 1000 }
  const commitsRun = git ? { commitMs, commitWritten } : {}
  pauses.stop()
  const timed = { oneEventMs, oneEventCpuMs, oneEventGcMs, written }
  return { files, bytes, slugPages, fullMs, fullCpuMs, served, ...timed, shares, ...commitsRun }
}

/** The main thread's garbage collection pauses so far, summed (the observer hears of them a tick late). */
function gcPauses(): { total(): Promise<number>; stop(): void } {
  let sum = 0
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) sum += entry.duration
  })
  observer.observe({ entryTypes: ['gc'] })
  return {
    total: () => new Promise((resolve) => setImmediate(() => resolve(sum))),
    stop: () => observer.disconnect(),
  }
}

/** A repository of the tree kept outside it (GIT_DIR, which the store reads too), its first commit made. */
interface Git {
  run(args: string[]): Promise<void>
  /** This process stops naming the repository; its folder stays until the run removes the tree's parent. */
  forget(): void
}

/**
 * The tree committed into a repository of its own in a folder beside it (in the run's folder, removed with it at
 * the end: `withCorpus`, common/run.ts); undefined when git is not installed.
 */
async function gitBeside(content: string): Promise<Git | undefined> {
  const dir = await mkdtemp(join(dirname(content), 'git-'))
  const { GIT_AUTHOR_DATE, GIT_COMMITTER_DATE, ...inherited } = process.env
  const env = { ...inherited, GIT_DIR: dir, GIT_CONFIG_NOSYSTEM: '1' }
  const run = async (args: string[]) => {
    await promisify(execFile)('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.org', ...args], {
      cwd: content,
      env,
      maxBuffer: 1 << 26,
    })
  }
  try {
    await run(['init', '-q'])
    // A repository named by GIT_DIR alone is made bare: it is told where its work tree is, for the store's git too.
    await run(['config', 'core.bare', 'false'])
    await run(['config', 'core.worktree', content])
    await run(['add', '-A', '.'])
    await run(['commit', '-q', '-m', 'the generated tree'])
  } catch {
    await rm(dir, { recursive: true, force: true })
    return undefined
  }
  // The store finds the repository as git does, through GIT_DIR (this is the build's own process).
  process.env.GIT_DIR = dir
  return {
    run,
    forget: () => {
      delete process.env.GIT_DIR
    },
  }
}

/** An occurrence's id is at least 10^9 (a record's below); its slug ends with its date (and time). */
const KINDS: [string, RegExp][] = [
  ['occurrences by id', /\/events\/\d{10,}\.json$/],
  ['events and series by id', /\/events\/\d+\.json$/],
  ['occurrences by slug', /\/events\/by-slug\/.*-\d{4}-\d{2}-\d{2}(-\d{4})?\.json$/],
  ['events and series by slug', /\/events\/by-slug\//],
  ['event lists', /\/events(\.json|\/page\/)/],
  ['venues, organizers, terms', /\/(venues|organizers|categories|tags)[./]/],
]

/** The build's manifest, its files summed by kind of answer. */
async function sharesOf(out: string): Promise<Share[]> {
  const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as {
    files: Record<string, { bytes: number }>
  }
  const shares = new Map<string, Share>()
  for (const [file, { bytes }] of Object.entries(manifest.files)) {
    const kind = KINDS.find(([, pattern]) => pattern.test(file))?.[0] ?? 'everything else'
    const share = shares.get(kind) ?? { kind, files: 0, bytes: 0 }
    share.files++
    share.bytes += bytes
    shares.set(kind, share)
  }
  return [...shares.values()].sort((a, b) => b.bytes - a.bytes)
}
