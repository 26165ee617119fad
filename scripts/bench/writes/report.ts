// The report's section for issue 4: writes through the API, and reads under concurrent writes.
import { failures, int, mark, ms, pct, seconds, table } from '../common/format.ts'
import { goal, type Goal } from '../common/goals.ts'
import type { Settled } from '../common/idle.ts'
import { describeLoad, type LoadSettings } from '../common/load.ts'
import type { WriteSizes, WriteTiming, WritesResult } from './writes.ts'

/** Issue 4's budgets, reported next to the numbers, never asserted: a write's p99, and the share of list
 * throughput kept under concurrent writes. */
export const WRITE_BUDGETS = {
  writeP99Ms: 20,
  readsUnderWrites: 0.8,
} as const

/** The write section: sequential creates and updates against the p99 budget, then reads with and without writers. */
export function formatWrites(
  w: WritesResult,
  s: LoadSettings,
  sizes: Pick<WriteSizes, 'capSeconds'>,
  budgets: typeof WRITE_BUDGETS,
): string {
  const r = w.reads
  // The budget is for writes on their own; the writers' row, under a read load, is there for comparison.
  const row = (label: string, t: WriteTiming, judged = true) => [
    label,
    t.count === t.planned ? int(t.count) : `${int(t.count)} of ${int(t.planned)}`,
    maybe(t.p50Ms),
    maybe(t.p99Ms),
    maybe(t.maxMs),
    int(t.errors),
    judged ? mark(t.p99Ms <= budgets.writeP99Ms && t.errors === 0) : '',
  ]
  const cut = [w.creates, w.updates].some((t) => t.count < t.planned)
  const settled = (label: string, x: Settled) =>
    `${label} ${x.idle ? seconds(x.ms) : `over ${seconds(x.ms)} (gave up)`}`
  const errors = [
    ['create', w.creates],
    ['update', w.updates],
    ['writer', r.writes],
  ] as const
  const read = (label: string, load: typeof r.alone, ratio?: number) => [
    label,
    int(load.requestsPerSec),
    ms(load.latencyP50Ms),
    ms(load.latencyP99Ms),
    ratio === undefined ? '' : pct(ratio),
    ratio === undefined ? '' : mark(ratio >= budgets.readsUnderWrites),
  ]
  return [
    'Writes: the real server with a users file, requests one at a time from the bench process (wall time, HTTP',
    'round trip included); each write replaces a file atomically (temp file, fsync, rename, directory fsync)',
    table([
      ['write', 'count', 'p50', 'p99', 'max', 'errors', `p99 <= ${ms(budgets.writeP99Ms)}`],
      row('POST /events (create)', w.creates),
      row('PATCH /events/{id} (title), sequential', w.updates),
      row(`PATCH by ${r.writers} concurrent writers, under reads`, r.writes, false),
    ]),
    ...errors
      .filter(([, t]) => t.firstError !== undefined)
      .map(([kind, t]) => `  first ${kind} error: ${t.firstError}`),
    ...(cut ? [`  "x of y": the sequence was cut at its time cap, ${sizes.capSeconds} s (BENCH_WRITE_SECONDS)`] : []),
    `  server busy after the writes until quiet (< 5% CPU for 1 s): ${settled('creates', w.settled.afterCreates)}, ` +
      `${settled('updates', w.settled.afterUpdates)}, ${settled('writers', w.settled.afterReads)}`,
    '',
    `Reads under writes: default list, ${describeLoad(s)}`,
    table([
      ['target', 'req/s', 'p50', 'p99', 'kept', `>= ${pct(budgets.readsUnderWrites)}`],
      read('default list, no writers', r.alone),
      read(`default list, ${r.writers} writers`, r.withWriters, r.ratio),
    ]),
    `  no writers: ${failures(r.alone)}`,
    `  ${r.writers} writers: ${failures(r.withWriters)}; the writers finished ${int(r.writes.count)} writes ` +
      `(${r.writesPerSec.toFixed(1)}/s) during the measured run`,
    'The writers are loops in the bench process (unpinned), beside the load generator on its own core; part of the',
    'drop can be client-side. Every write also empties the list cache.',
  ].join('\n')
}

/** A time, or n/a when there was no sample to take it from. */
function maybe(t: number): string {
  return Number.isFinite(t) ? ms(t) : 'n/a'
}

/** The write goal: creates and updates, one at a time, each with a p99 within budget and no error. */
export function writeGoals(w: WritesResult | undefined): Goal[] {
  const worst = w ? Math.max(w.creates.p99Ms, w.updates.p99Ms) : NaN
  const errors = w ? w.creates.errors + w.updates.errors : 0
  const measured = w
    ? `creates ${maybe(w.creates.p99Ms)}, updates ${maybe(w.updates.p99Ms)} (p50 ${maybe(w.creates.p50Ms)}/${maybe(w.updates.p50Ms)}), ${errors} errors`
    : undefined
  return [
    goal(`writes p99 <= ${ms(WRITE_BUDGETS.writeP99Ms)}`, measured, worst <= WRITE_BUDGETS.writeP99Ms && errors === 0),
  ]
}
