// `npm run bench:build`: the static build section of `npm run bench` on its own (about a minute):
// a generated 10,000-event tree in 4 languages, a full build into an empty folder, then edits of
// one event until its files are current. Env: BENCH_EVENTS (10000), BENCH_BUILD (10 edits),
// BENCH_WORKERS (render threads; default one per core, at most 4).
import { rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { buildGoals, formatBuild } from './build.ts'
import { measureBuildApart } from '../common/build-run.ts'
import { generateContent } from '../common/content.ts'
import { formatSummary, summarize } from '../common/goals.ts'
import { envNumber } from '../common/load.ts'

const tmp = join(os.tmpdir(), `almanac-bench-build-${process.pid}`)
try {
  const corpus = await generateContent(join(tmp, 'content'), envNumber('BENCH_EVENTS', 10_000))
  console.log(
    `${corpus.files.toLocaleString('en')} content files; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}`,
  )
  const workers = process.env.BENCH_WORKERS === undefined ? undefined : envNumber('BENCH_WORKERS', 0)
  const run = await measureBuildApart({
    content: join(tmp, 'content'),
    out: join(tmp, 'dist'),
    edits: Math.max(1, envNumber('BENCH_BUILD', 10)),
    commits: envNumber('BENCH_BUILD_COMMITS', 1) > 0,
    ...(workers === undefined ? {} : { workers }),
  })
  console.log(`${formatBuild(run)}\n\n${formatSummary(summarize(buildGoals(run), corpus.events))}`)
} finally {
  await rm(tmp, { recursive: true, force: true })
}
