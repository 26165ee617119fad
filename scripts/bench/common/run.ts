// What every entry does around its measurements: a temp tree of generated content, children and the tree
// cleaned up on every exit path, progress on stderr, and the results as JSON under `.bench/`.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { killAllSync } from './children.ts'
import { generateContent, type Corpus } from './content.ts'
import { envNumber } from './load.ts'

/** The generated tree an entry measures, and the machine's state before it began. */
export interface BenchRun {
  tmp: string
  corpus: Corpus
  generateMs: number
  loadBefore: number
}

/**
 * Generates BENCH_EVENTS (10,000) events in four languages under a temp folder named for the entry, runs
 * `work` on them, and removes the folder and every child on any exit; past `limitSeconds` the run is a hang.
 *
 * The sections put every bulky folder they make (a bigger tree, a build's output, a repository) under that
 * folder and leave it there until the end. Removed midway, tens of thousands of files taxed the next section
 * that created files: ext4 without a journal (the shared machine's disk) will not reuse an inode deleted less
 * than 60 s ago (6 minutes while its block is not yet written back; files made beside it probably make that
 * block dirty again), and each new file's inode is found by stepping past every such one. A full build 150 s after removing a
 * 40,000-event tree took 25.1 s, 16.0 s of it system CPU, against 19.6 s and 6.6 s on a disk left alone
 * (docs/architecture.md, section 7). So the numbers are those of a disk left alone only when the run begins on
 * one: minutes after a run, or anything else, removed many files there.
 */
export async function withCorpus(name: string, limitSeconds: number, work: (run: BenchRun) => Promise<void>) {
  const tmp = join(os.tmpdir(), `${name}-${process.pid}`)
  const loadBefore = os.loadavg()[0]!
  installCleanup(tmp, limitSeconds)
  try {
    log(`generating content in ${tmp} …`)
    const generating = performance.now()
    const corpus = await generateContent(join(tmp, 'content'), envNumber('BENCH_EVENTS', 10_000))
    await work({ tmp, corpus, generateMs: performance.now() - generating, loadBefore })
  } finally {
    killAllSync()
    await rm(tmp, { recursive: true, force: true })
  }
}

/** Children and the temp tree go away on every exit path: error, Ctrl-C, SIGTERM or a hung run. */
function installCleanup(tmp: string, limitSeconds: number): void {
  const reap = () => {
    killAllSync()
    rmSync(tmp, { recursive: true, force: true })
  }
  process.once('exit', reap)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, cleaning up`)
      process.exit(130)
    })
  }
  setTimeout(() => {
    console.error(`bench: still running after ${Math.round(limitSeconds)} s, giving up`)
    process.exit(1)
  }, limitSeconds * 1000).unref()
}

/**
 * Writes what is waiting for the disk (`sync`) before the next measurement: kept, a freshly made tree or build
 * would be written back while a later section times fsyncs. Where there is no `sync`, nothing is done.
 */
export function flushDisk(): void {
  try {
    execFileSync('sync', { stdio: 'ignore', timeout: 120_000 })
  } catch {}
}

/** Runs an entry's main, reporting a failure on stderr with a non-zero exit code. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(`bench failed: ${(error as Error).stack ?? String(error)}`)
    process.exitCode = 1
  })
}

/** Progress goes to stderr so stdout carries only the report. */
export function log(message: string): void {
  console.error(message)
}

/** Writes the results as pretty JSON to each of `files`, creating the folder (it is git-ignored); says where. */
export async function writeJson(files: string[], results: unknown): Promise<void> {
  for (const file of files) {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, `${JSON.stringify(results, null, 2)}\n`)
  }
  log(`\nresults written to ${files.join(' and ')}`)
}
