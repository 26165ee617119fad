// The varied mix on Almanac: generate the paths, capture every answer once into the replay book (its limit
// replays each path's own bytes), keep those that answer 200, then load them all in turn; and the soak it keeps
// running before a memory sample.
import type { Corpus } from './content.ts'
import { envNumber, loadSeconds, loadTest, type LoadResult, type LoadSettings } from './load.ts'
import { capture, type ReplayBook } from './capture.ts'
import { MIX_KINDS, mixPaths, type MixKind, type MixPath } from './mix-paths.ts'

/** What the mix asked for and how Almanac held up; the limit's numbers are filled in later. */
export interface MixRun {
  generated: number
  dropped: number
  droppedSample: string[]
  kinds: Record<MixKind, number>
  verifyMs: number
  meanBytes: number
  paths: string[]
  almanac: LoadResult
}

const CAPTURE_CONCURRENCY = 8

/** The mix as captured, before it is loaded. */
export type CapturedMix = Omit<MixRun, 'almanac'>

/** Builds the mix for the server at `origin`, captures every path once into `book`, and load-tests the survivors. */
export async function measureMix(
  origin: string,
  api: string,
  corpus: Corpus,
  settings: LoadSettings,
  book: ReplayBook,
): Promise<MixRun> {
  const mix = await captureMix(origin, api, corpus, book)
  return { ...mix, almanac: await loadTest(`${origin}${mix.paths[0]}`, settings, mix.paths) }
}

/** Builds the mix for the server at `origin` and captures every path once into `book`; keeps those that answer 200. */
export async function captureMix(origin: string, api: string, corpus: Corpus, book: ReplayBook): Promise<CapturedMix> {
  const generated = mixPaths(corpus, api, envNumber('BENCH_MIX_PATHS', 3000))
  const started = performance.now()
  // Every path, not a sample: a single 404 in the cycle would repeat every lap and skew the run.
  const { kept, dropped, bytes } = await captureAll(origin, generated, book)
  const verifyMs = performance.now() - started
  if (kept.length === 0) throw new Error('no path of the varied mix answered 200')
  console.error(
    `varied mix: ${generated.length} paths captured in ${(verifyMs / 1000).toFixed(1)} s, ${dropped.length} dropped (not 200)`,
  )
  return {
    generated: generated.length,
    dropped: dropped.length,
    droppedSample: dropped.slice(0, 5),
    kinds: Object.fromEntries(MIX_KINDS.map((k) => [k, kept.filter((p) => p.kind === k).length])) as MixRun['kinds'],
    verifyMs,
    meanBytes: bytes / kept.length,
    paths: kept.map((p) => p.path),
  }
}

/** GETs every path once, a few at a time; 200s go into the book in order, the rest are dropped. */
async function captureAll(origin: string, paths: MixPath[], book: ReplayBook) {
  const answers = new Array<Awaited<ReturnType<typeof capture>>>(paths.length)
  const kept: MixPath[] = []
  const dropped: string[] = []
  let bytes = 0
  let next = 0
  let written = 0
  // Answers are written to the book in path order as soon as every earlier one is in, so few wait in memory.
  const flush = () => {
    while (written < next && answers[written]) {
      const answer = answers[written]!
      const path = paths[written]!
      if (answer.status === 200) {
        book.add(path.path, answer)
        kept.push(path)
        bytes += answer.body.length
      } else dropped.push(`${answer.status} ${path.path}`)
      answers[written++] = undefined as never
    }
  }
  const worker = async () => {
    while (next < paths.length) {
      const i = next++
      answers[i] = await capture(`${origin}${paths[i]!.path}`)
      flush()
    }
  }
  await Promise.all(Array.from({ length: CAPTURE_CONCURRENCY }, worker))
  flush()
  return { kept, dropped, bytes }
}

/** The varied mix kept running until it has run BENCH_SOAK_SECONDS (60) in all; returns that total. */
export async function soak(origin: string, paths: string[], settings: LoadSettings): Promise<number> {
  const total = envNumber('BENCH_SOAK_SECONDS', 60)
  const more = Math.round(total - loadSeconds(settings))
  if (more >= 1) {
    console.error(`varied mix: ${more} s more before sampling memory …`)
    await loadTest(`${origin}${paths[0]}`, { ...settings, seconds: more, rounds: 1, warmupSeconds: 0 }, paths)
  }
  return Math.max(total, loadSeconds(settings))
}
