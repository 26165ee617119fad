// The varied mix against a running Almanac: generate the paths, keep only those that answer 200,
// then load them all in turn. The answers' sizes pick the body the bare baseline replays for it.
import { get, type Answer } from '../common/client.ts'
import type { Corpus } from '../common/content.ts'
import { envNumber, loadTest, type LoadResult, type LoadSettings } from '../common/load.ts'
import { MIX_SHARES, mixPaths, type MixKind, type MixPath } from './mix-paths.ts'

/** What the mix asked for and how Almanac held up; the bare numbers are filled in later. */
export interface MixRun {
  /** Distinct paths generated, and how many of them were dropped for not answering 200. */
  generated: number
  dropped: number
  droppedSample: string[]
  /** Paths per kind, after dropping. */
  kinds: Record<MixKind, number>
  verifyMs: number
  meanBytes: number
  /** The answer closest to the mean size: what the bare handler replays for every mix request. */
  representative: { path: string; bytes: number; contentType: string; body: Buffer }
  paths: string[]
  almanac: LoadResult
}

const VERIFY_CONCURRENCY = 8

/** Builds the mix for the server at `origin`, checks every path once, and load-tests the survivors. */
export async function measureMix(origin: string, api: string, corpus: Corpus, settings: LoadSettings): Promise<MixRun> {
  const defaultTotal = await totalOf(`${origin}${api}/events?per_page=1`)
  const generated = mixPaths({ corpus, api, defaultTotal }, envNumber('BENCH_MIX_PATHS', 4000))
  const started = performance.now()
  // Every path, not a sample: a single 404 in the cycle would repeat every lap and skew the run.
  const answers = await verifyAll(origin, generated)
  const verifyMs = performance.now() - started
  const kept = generated.filter((_, i) => answers[i]!.status === 200)
  const keptAnswers = answers.filter((a) => a.status === 200)
  if (kept.length === 0) throw new Error('no path of the varied mix answered 200')
  const dropped = generated.filter((_, i) => answers[i]!.status !== 200)
  const paths = kept.map((p) => p.path)
  const meanBytes = keptAnswers.reduce((sum, a) => sum + a.body.length, 0) / keptAnswers.length
  // Progress goes to stderr, like the bench's other progress lines; the report repeats the count.
  console.error(
    `varied mix: ${generated.length} paths checked in ${(verifyMs / 1000).toFixed(1)} s, ${dropped.length} dropped (not 200)`,
  )
  for (const path of dropped.slice(0, 5))
    console.error(`  dropped: ${answers[generated.indexOf(path)]!.status} ${path.path}`)
  return {
    generated: generated.length,
    dropped: dropped.length,
    droppedSample: dropped.slice(0, 5).map((p) => `${answers[generated.indexOf(p)]!.status} ${p.path}`),
    kinds: countKinds(kept),
    verifyMs,
    meanBytes,
    representative: representative(kept, keptAnswers, meanBytes),
    paths,
    almanac: await loadTest(`${origin}${paths[0]}`, settings, paths),
  }
}

/** The default list's `total`, which bounds the pages the mix may ask for. */
async function totalOf(url: string): Promise<number> {
  const answer = await get(url)
  if (answer.status !== 200) throw new Error(`GET ${url}: HTTP ${answer.status}`)
  return (JSON.parse(answer.body.toString('utf8')) as { total: number }).total
}

/** GETs every path once, a few at a time; a failed request counts as status 0. */
async function verifyAll(origin: string, paths: MixPath[]): Promise<Answer[]> {
  const answers: Answer[] = new Array(paths.length)
  let next = 0
  const worker = async () => {
    while (next < paths.length) {
      const i = next++
      answers[i] = await get(`${origin}${paths[i]!.path}`).catch(() => ({
        status: 0,
        contentType: '',
        body: Buffer.alloc(0),
        ms: 0,
      }))
    }
  }
  await Promise.all(Array.from({ length: VERIFY_CONCURRENCY }, worker))
  return answers
}

function countKinds(paths: MixPath[]): Record<MixKind, number> {
  const kinds = Object.fromEntries(Object.keys(MIX_SHARES).map((k) => [k, 0])) as Record<MixKind, number>
  for (const p of paths) kinds[p.kind]++
  return kinds
}

/** The answer whose size is nearest the mean, so the bare handler moves as many bytes per request on average. */
function representative(paths: MixPath[], answers: Answer[], mean: number): MixRun['representative'] {
  let best = 0
  answers.forEach((a, i) => {
    if (Math.abs(a.body.length - mean) < Math.abs(answers[best]!.body.length - mean)) best = i
  })
  const answer = answers[best]!
  return { path: paths[best]!.path, bytes: answer.body.length, contentType: answer.contentType, body: answer.body }
}
