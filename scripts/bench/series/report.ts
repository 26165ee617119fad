// The series section of the report: each measure without and with the series side by side, the change, and
// issue 13's goal where one exists (shown for reference: these numbers are reported, not counted as goals).
import { int, mark, mb, ms, ms3, seconds, table } from '../common/format.ts'
import type { TreeNumbers } from './tree.ts'

/** Issue 13's goals that a measure of this section has (for the plain 10k tree): reference only. */
const ISSUE_13 = {
  startMs: 1200,
  mixRatio: 0.25,
  coldQueryP50Ms: 0.2,
  coldSearchP50Ms: 1,
  rssMb: 300,
  buildMs: 15_000,
  buildBytes: 1e9,
  editMs: 300,
} as const

/** A row: what, without, with, the change, issue 13's goal and whether the tree with series meets it. */
type Row = [string, string, string, string, string, string]

/** The whole section. */
export function formatSeries(plain: TreeNumbers, withSeries: TreeNumbers): string {
  const occurrences = withSeries.served - plain.served
  const out = [
    `Series: ${int(withSeries.content.series)} weekly open-ended series added to the same tree, served as ` +
      `${int(occurrences)} occurrences (the lists show ${int(withSeries.served)} events, not ${int(plain.served)})`,
    "Reported only: these numbers are not goals and are not counted in the summary. The goal column is issue 13's",
    'goal for the plain tree, with ✓/✗ for the tree with series against it, for reference.',
    ...(plain.note ? [`Without series: ${plain.note}.`] : []),
    table([
      ['measure', 'without series', 'with series', 'change', 'issue 13 goal', ''],
      ...serveRows(plain, withSeries),
      ...queryRows(plain, withSeries),
      ...buildRows(plain, withSeries),
    ]),
    perOccurrence(plain, withSeries, occurrences),
    ...fitLines(withSeries),
  ]
  const warnings = withSeries.serve.warnings
  if (warnings && warnings.lines > 0)
    out.push(`The server with series printed ${int(warnings.lines)} warning line(s), first: ${warnings.first}`)
  return out.join('\n')
}

function serveRows(a: TreeNumbers, b: TreeNumbers): Row[] {
  const [x, y] = [a.serve, b.serve]
  const rps = (t: TreeNumbers) =>
    `${int(t.serve.mix.almanac.requestsPerSec)} of ${int(t.serve.mix.limit.requestsPerSec)}`
  return [
    ['content files', int(a.content.files), int(b.content.files), diff(a.content.files, b.content.files, int), '', ''],
    [
      'cold start: spawn -> first 200',
      ms(x.coldStart.firstListMs),
      ms(y.coldStart.firstListMs),
      diff(x.coldStart.firstListMs, y.coldStart.firstListMs, ms),
      `<= ${seconds(ISSUE_13.startMs)}`,
      mark(y.coldStart.firstListMs <= ISSUE_13.startMs),
    ],
    [
      '  -> "Almanac is serving"',
      ms(x.coldStart.servingLineMs),
      ms(y.coldStart.servingLineMs),
      diff(x.coldStart.servingLineMs, y.coldStart.servingLineMs, ms),
      '',
      '',
    ],
    [
      'varied mix: ratio to its limit',
      x.mix.ratio.toFixed(2),
      y.mix.ratio.toFixed(2),
      signed(y.mix.ratio - x.mix.ratio, (n) => n.toFixed(2)),
      `>= ${ISSUE_13.mixRatio}`,
      mark(y.mix.ratio >= ISSUE_13.mixRatio),
    ],
    ['  req/s (almanac of limit)', rps(a), rps(b), '', '', ''],
    [
      '  mean answer bytes',
      int(x.mix.meanBytes),
      int(y.mix.meanBytes),
      diff(x.mix.meanBytes, y.mix.meanBytes, int),
      '',
      '',
    ],
    [
      `RSS after the varied mix (${y.memory.soakSeconds} s)`,
      mb(x.memory.afterMixMb),
      mb(y.memory.afterMixMb),
      diff(x.memory.afterMixMb, y.memory.afterMixMb, mb),
      `<= ${mb(ISSUE_13.rssMb)}`,
      mark(y.memory.afterMixMb <= ISSUE_13.rssMb),
    ],
    [
      '  RSS after start',
      mb(x.memory.afterStartMb),
      mb(y.memory.afterStartMb),
      diff(x.memory.afterStartMb, y.memory.afterStartMb, mb),
      '',
      '',
    ],
  ]
}

function queryRows(a: TreeNumbers, b: TreeNumbers): Row[] {
  const [x, y] = [a.inProcess, b.inProcess]
  const rows: Row[] = [
    [
      'in-process: store + app built',
      seconds(x.storeAndAppMs),
      seconds(y.storeAndAppMs),
      diff(x.storeAndAppMs, y.storeAndAppMs, ms),
      '',
      '',
    ],
  ]
  for (const [i, q] of y.cold.entries()) {
    const p = x.cold[i]
    const limit = q.name.startsWith('search') ? ISSUE_13.coldSearchP50Ms : ISSUE_13.coldQueryP50Ms
    rows.push([
      `cold p50: ${q.name} (${int(p?.matches ?? NaN)} / ${int(q.matches)} match)`,
      p ? ms3(p.p50Ms) : 'n/a',
      ms3(q.p50Ms),
      p ? diff(p.p50Ms, q.p50Ms, ms3) : '',
      `<= ${ms3(limit)}`,
      mark(q.p50Ms <= limit),
    ])
  }
  const en = (t: TreeNumbers['inProcess']) => t.searchBuildMs.en ?? NaN
  rows.push(['search index build (en, once)', ms(en(x)), ms(en(y)), diff(en(x), en(y), ms), '', ''])
  return rows
}

function buildRows(a: TreeNumbers, b: TreeNumbers): Row[] {
  const [x, y] = [a.build, b.build]
  if (!x || !y) return [['static build', x ? 'measured' : 'skipped', y ? 'measured' : 'skipped', '', '', '']]
  const size = (n: number) => `${int(n / 1e6)} MB`
  const slugs = (r: typeof x) =>
    r.slugPages
      ? `${int(r.slugPages.files)}, ${size(r.slugPages.bytes)}, ${r.slugPages.written ? 'written' : 'left out'}`
      : 'none'
  const edit = (r: typeof x) => median(r.oneEventMs)
  return [
    [
      'static build: time',
      seconds(x.fullMs),
      seconds(y.fullMs),
      diff(x.fullMs, y.fullMs, seconds),
      `<= ${seconds(ISSUE_13.buildMs)}`,
      mark(y.fullMs <= ISSUE_13.buildMs),
    ],
    ['static build: files', int(x.files), int(y.files), diff(x.files, y.files, int), '', ''],
    [
      'static build: bytes (10^6)',
      size(x.bytes),
      size(y.bytes),
      diff(x.bytes, y.bytes, size),
      '< 1 GB',
      mark(y.bytes < ISSUE_13.buildBytes),
    ],
    ['  by-slug files (written while the site fits 1 GB)', slugs(x), slugs(y), '', '', ''],
    [
      `one edit -> files current (median; with series: a series)`,
      ms(edit(x)),
      ms(edit(y)),
      diff(edit(x), edit(y), ms),
      `<= ${ms(ISSUE_13.editMs)} (one event)`,
      mark(edit(y) <= ISSUE_13.editMs),
    ],
    ['  files written per edit', x.written.join('/'), y.written.join('/'), '', '', ''],
  ]
}

/** What each occurrence costs, from the differences: start, memory, build files and bytes. */
function perOccurrence(a: TreeNumbers, b: TreeNumbers, occurrences: number): string {
  if (occurrences <= 0) return 'Per occurrence: no occurrence served'
  const each = (x: number, y: number) => (y - x) / occurrences
  const start = each(a.serve.coldStart.firstListMs, b.serve.coldStart.firstListMs) * 1000
  const kb = (n: number) => `${n.toFixed(1)} KB`
  const started = each(a.serve.memory.afterStartMb, b.serve.memory.afterStartMb) * 1024
  const mixed = each(a.serve.memory.afterMixMb, b.serve.memory.afterMixMb) * 1024
  const parts = [
    `start ${signed(start, (n) => `${n.toFixed(1)} µs`)}`,
    `RSS ${signed(started, kb)} after start, ${signed(mixed, kb)} after the mix`,
  ]
  if (a.build && b.build)
    parts.push(
      `build ${signed(each(a.build.files, b.build.files), (n) => n.toFixed(1))} files, ` +
        `${signed(each(a.build.bytes, b.build.bytes) / 1e3, (n) => `${n.toFixed(1)} KB`)}, ` +
        `${signed(each(a.build.fullMs, b.build.fullMs), (n) => `${n.toFixed(2)} ms`)}`,
    )
  return `Per occurrence (difference / ${int(occurrences)} occurrences): ${parts.join('; ')}`
}

/** Whether the default build with series fits 1 GB, by how much it does not, and what its bytes are. */
function fitLines({ build }: TreeNumbers): string[] {
  if (!build) return []
  const size = (n: number) => `${int(n / 1e6)} MB`
  const over = build.bytes - ISSUE_13.buildBytes
  const fit =
    over < 0
      ? `fits 1 GB (${size(-over)} to spare)`
      : `does not fit 1 GB: ${size(over)} over (x${(build.bytes / ISSUE_13.buildBytes).toFixed(1)})`
  const slugs =
    build.slugPages && !build.slugPages.written ? `, by-slug files left out (${size(build.slugPages.bytes)})` : ''
  const shares = build.shares.map((s) => `${s.kind} ${int(s.files)} files ${size(s.bytes)}`)
  return [`The default build with series ${fit}${slugs}. Its bytes: ${shares.join('; ')}`]
}

/** The difference, signed, and the factor. */
function diff(x: number, y: number, format: (n: number) => string): string {
  const factor = x > 0 ? ` (x${(y / x).toFixed(2)})` : ''
  return `${signed(y - x, format)}${factor}`
}

function signed(n: number, format: (n: number) => string): string {
  return n < 0 ? `-${format(-n)}` : `+${format(n)}`
}

function median(times: number[]): number {
  const sorted = [...times].sort((p, q) => p - q)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}
