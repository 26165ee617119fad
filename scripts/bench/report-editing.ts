// The report's sections for issues 4 and 5: writes through the API, and content changed on disk or by git.
import type { CheckoutRun } from './checkout.ts'
import type { EditingRun, EditingSizes } from './editing.ts'
import { failures, int, mark, ms, pct, seconds, table } from './format.ts'
import type { Settled } from './idle.ts'
import type { LoadSettings } from './load.ts'
import type { BUDGETS } from './report.ts'
import type { WriteTiming, WritesResult } from './writes.ts'

/** The write section: sequential creates and updates against the p99 budget, then reads with and without writers. */
export function formatWrites(w: WritesResult, s: LoadSettings, sizes: EditingSizes, budgets: typeof BUDGETS): string {
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
    `Reads under writes: default list, autocannon, ${s.connections} connections, ${s.seconds} s after ${s.warmupSeconds} s warm-up`,
    table([
      ['target', 'req/s', 'p50', 'p99', 'kept', `>= ${pct(budgets.readsUnderWrites)}`],
      read('default list, no writers', r.alone),
      read(`default list, ${r.writers} writers`, r.withWriters, r.ratio),
    ]),
    `  no writers: ${failures(r.alone)}`,
    `  ${r.writers} writers: ${failures(r.withWriters)}; the writers finished ${int(r.writes.count)} writes ` +
      `(${r.writesPerSec.toFixed(1)}/s) during the measured run`,
    'The writers are loops in the bench process, beside autocannon; writers, autocannon and the server all',
    'share the same 2 cores, so part of the drop is client-side. Every write also empties the list cache.',
  ].join('\n')
}

/** The live-content section: edits on disk against the 200 ms median, and the git checkouts' times. */
export function formatLive(live: EditingRun['live'], budgets: typeof BUDGETS): string {
  const v = live.visible
  const c = live.checkout
  const shown = v.count === v.edits ? `${v.edits}` : `${v.count} shown of ${v.edits}`
  const skipped = v.edits - v.count - v.timeouts
  return [
    `Live content: the server follows its content folder with chokidar; each edit rewrites one event's .en.md title`,
    table([
      ['change', 'measured', 'budget', ''],
      [
        `edit on disk -> served, median of ${shown}`,
        maybe(v.p50Ms),
        `<= ${ms(budgets.visibleMedianMs)}`,
        mark(v.p50Ms <= budgets.visibleMedianMs && v.timeouts === 0),
      ],
      ['  p99', maybe(v.p99Ms), '', ''],
      ['  max', maybe(v.maxMs), '', ''],
      [`  timeouts (> ${ms(v.timeoutMs)})`, int(v.timeouts), '', ''],
      ['first edit (probe, not counted)', v.probeMs === null ? 'never' : ms(v.probeMs), '', ''],
      ...checkoutRows(c.forward, c.files, c.timeoutMs),
      ...checkoutRows(c.back, c.files, c.timeoutMs),
    ]),
    ...(skipped > 0 ? [`  ${skipped} edits skipped: the watcher missed too many`] : []),
    `Edits are polled every ${v.pollMs} ms with GET /events/{id}, checkouts every ${c.pollMs} ms on three sentinels (first,`,
    "middle and last file in git's order), then all events are verified with ?include= (untimed unless some are late).",
    `Untimed: waiting for the server to go quiet before the probe, ${seconds(v.settledMs)}; branch set-up (git init, add`,
    `and commit of the whole tree, then the edits' commit, made without touching the working tree), ${seconds(c.setupMs)}.`,
  ].join('\n')
}

function checkoutRows(run: CheckoutRun, files: number, timeoutMs: number): string[][] {
  const time = (t: number | null) => (t === null ? `> ${ms(timeoutMs)}` : ms(t))
  return [
    [`git checkout ${run.branch} (${int(files)} files) -> all served`, time(run.appliedMs), 'reported', ''],
    ['  of which git checkout itself', ms(run.gitMs), '', ''],
    ['  sentinels (3) served', time(run.sentinelsMs), '', ''],
    ['  events still old then', int(run.lateAfterSentinels), '', ''],
    ...(run.stillOld > 0 ? [['  events still old at the limit', int(run.stillOld), '', '']] : []),
    ['  server busy afterwards (untimed)', ms(run.settledMs), '', ''],
  ]
}

/** A time, or n/a when there was no sample to take it from. */
function maybe(t: number): string {
  return Number.isFinite(t) ? ms(t) : 'n/a'
}
