// The numbers the series section compares, for one tree: served by the CLI (start, the varied mix and its limit,
// memory), listEvents in-process, and the static build. Taken here for a tree, or read from what the main
// sections of `npm run bench` already measured on the plain tree.
import { join } from 'node:path'
import { type BuildRun, measureBuildApart } from '../common/build-run.ts'
import type { Corpus } from '../common/content.ts'
import { type InProcessResults, measureInProcess } from '../common/inprocess.ts'
import { envNumber, type LoadSettings } from '../common/load.ts'
import { log } from '../common/run.ts'
import { measureServed, type Served } from './serve.ts'

/** One tree's numbers. */
export interface TreeNumbers {
  content: { events: number; series: number; files: number; bytes: number }
  /** Events the lists show: single events and occurrences. */
  served: number
  serve: Served
  /** Cold p50 of each in-process query shape, by name, and the one-off costs. */
  inProcess: {
    cold: { name: string; matches: number; p50Ms: number }[]
    storeAndAppMs: number
    searchBuildMs: Record<string, number>
  }
  build: BuildRun | null
  /** Where the plain tree's numbers came from, when not measured here. */
  note?: string
}

/** The plain tree's numbers as the reads and build sections measured them (structurally: no import of theirs). */
export interface MainRun {
  coldStart: Served['coldStart'] & { records: string; firstListRunsMs: number[] }
  mix: Omit<Served['mix'], 'paths'> & { paths: number }
  memory: { afterLoadMb: number; afterMixMb: number; soakSeconds: number; peakMb: number | null }
  inProcess: InProcessResults
}

/** Measures `corpus` whole: the CLI, then in-process, then (BENCH_BUILD > 0) the build with `edits` edits. */
export async function measureTree(
  corpus: Corpus,
  settings: LoadSettings,
  tmp: string,
  edits: number,
): Promise<TreeNumbers> {
  const what = corpus.series > 0 ? `with ${corpus.series} series` : 'without series'
  log(`series section, tree ${what}: cold start and the varied mix, then its limit …`)
  const serve = await measureServed(corpus, settings, tmp)
  log(`series section, tree ${what}: listEvents in-process …`)
  const runs = envNumber('BENCH_QUERY_RUNS', 200)
  const inProcess = await measureInProcess(corpus, runs, Math.max(1, envNumber('BENCH_QUERY_ROUNDS', 3)))
  const build = envNumber('BENCH_BUILD', 10) > 0 ? await buildOf(corpus, tmp, edits, what) : null
  return { content: contentOf(corpus), served: inProcess.served, serve, inProcess: queries(inProcess), build }
}

/** The plain tree's numbers out of the main run's reads and build sections: nothing measured twice. */
export function fromMainRun(corpus: Corpus, reads: MainRun, build: BuildRun | undefined): TreeNumbers {
  const { records, firstListRunsMs, servingLineMs, serverReadyMs } = reads.coldStart
  // The measured server's own start, as the series tree's is timed: one start each, not a median beside one.
  const firstListMs = firstListRunsMs.at(-1)!
  const m = reads.memory
  const serve: Served = {
    records,
    coldStart: { firstListMs, servingLineMs, serverReadyMs },
    mix: reads.mix,
    memory: { afterStartMb: m.afterLoadMb, afterMixMb: m.afterMixMb, soakSeconds: m.soakSeconds, peakMb: m.peakMb },
    warnings: null,
  }
  return {
    content: contentOf(corpus),
    served: reads.inProcess.served,
    serve,
    inProcess: queries(reads.inProcess),
    build: build ?? null,
    note:
      "the reads and build sections' numbers: its RSS was sampled after the single URLs too, and the build ran on " +
      'the tree as generated, before the write and watch sections changed it',
  }
}

/** A full build of the tree, then edits of one series (of one event when there is none). */
async function buildOf(corpus: Corpus, tmp: string, edits: number, what: string): Promise<BuildRun> {
  log(`series section, tree ${what}: the static build …`)
  return await measureBuildApart({
    content: corpus.dir,
    out: join(tmp, `dist-${corpus.series}`),
    edits,
    editSeries: true,
  })
}

function contentOf(corpus: Corpus): TreeNumbers['content'] {
  return { events: corpus.events, series: corpus.series, files: corpus.files, bytes: corpus.bytes }
}

function queries(r: InProcessResults): TreeNumbers['inProcess'] {
  const cold = r.queries.map((q) => ({ name: q.name, matches: q.matches, p50Ms: q.cold.p50Ms }))
  return { cold, storeAndAppMs: r.storeAndAppMs, searchBuildMs: r.searchBuildMs }
}
