import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { LoadResult, LoadSettings } from './load.ts'

/** The budgets: reported next to the numbers, never asserted. */
export const BUDGETS = { readyMs: 2000, rssMb: 400, ratio: 0.7 } as const

/** One endpoint measured on Almanac and on the bare handler that returns the same bytes. */
export interface TargetResult {
  name: string
  path: string
  responseBytes: number
  contentType: string
  almanac: LoadResult
  bare: LoadResult
  /** Almanac's requests/s over the bare handler's. */
  ratio: number
}

/** Everything one run measured, as written to `.bench/issue-2.json`. */
export interface BenchResults {
  date: string
  machine: { cpu: string; cores: number; memoryGb: number; node: string; platform: string }
  content: { files: number; megabytes: number; events: number; languages: number; generateMs: number }
  settings: LoadSettings
  coldStart: { servingLineMs: number; firstListMs: number; firstListRequestMs: number; serverReadyMs: number | null; records: string }
  memory: { afterLoadMb: number; afterTestsMb: number; peakMb: number | null }
  targets: TargetResult[]
  budgets: typeof BUDGETS
  serverWarnings: string[]
}

/** Renders the results as the compact text report printed to stdout. */
export function formatReport(r: BenchResults): string {
  const m = r.machine
  const s = r.settings
  const out = [
    `Almanac bench, ${r.date}`,
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb.toFixed(1)} GB, Node ${m.node} (${m.platform})`,
    `Content: ${int(r.content.files)} files, ${r.content.megabytes.toFixed(1)} MB ` +
      `(${int(r.content.events)} events x ${r.content.languages} languages + venues, organizers, terms), ` +
      `generated in ${seconds(r.content.generateMs)}`,
    `Server: ${r.coldStart.records}`,
    '',
    table([
      ['Cold start and memory', 'measured', 'budget', ''],
      ['spawn -> "Almanac is serving"', ms(r.coldStart.servingLineMs), `<= ${ms(BUDGETS.readyMs)}`, mark(r.coldStart.servingLineMs <= BUDGETS.readyMs)],
      ['spawn -> first 200 of default list', ms(r.coldStart.firstListMs), `<= ${ms(BUDGETS.readyMs)}`, mark(r.coldStart.firstListMs <= BUDGETS.readyMs)],
      ['  of which that first request', ms(r.coldStart.firstListRequestMs), '', ''],
      ['server\'s own "ready in"', r.coldStart.serverReadyMs === null ? 'n/a' : ms(r.coldStart.serverReadyMs), '', ''],
      ['RSS after load', mb(r.memory.afterLoadMb), `<= ${mb(BUDGETS.rssMb)}`, mark(r.memory.afterLoadMb <= BUDGETS.rssMb)],
      ['RSS after load tests', mb(r.memory.afterTestsMb), `<= ${mb(BUDGETS.rssMb)}`, mark(r.memory.afterTestsMb <= BUDGETS.rssMb)],
      ['peak RSS (VmHWM)', r.memory.peakMb === null ? 'n/a' : mb(r.memory.peakMb), `<= ${mb(BUDGETS.rssMb)}`,
        r.memory.peakMb === null ? '' : mark(r.memory.peakMb <= BUDGETS.rssMb)],
    ]),
    'Content was just written, so the start reads from the page cache; RSS under load saw-tooths with major GCs,',
    'so "after load tests" is a point sample and the peak is the steadier number.',
    '',
    `Throughput: autocannon, ${s.connections} connections, ${s.seconds} s per target after ${s.warmupSeconds} s warm-up, loopback`,
    table([
      ['target', 'bytes', 'almanac req/s', 'p99', 'bare h3 req/s', 'p99', 'ratio', `>= ${pct(BUDGETS.ratio)}`],
      ...r.targets.map((t) => [
        `${t.name} ${t.path}`, int(t.responseBytes),
        int(t.almanac.requestsPerSec), ms(t.almanac.latencyP99Ms),
        int(t.bare.requestsPerSec), ms(t.bare.latencyP99Ms),
        pct(t.ratio), mark(t.ratio >= BUDGETS.ratio),
      ]),
    ]),
    ...r.targets.map((t) => `  ${t.name}: almanac ${failures(t.almanac)}; bare ${failures(t.bare)}`),
  ]
  if (r.serverWarnings.length > 0) {
    out.push('', `Server printed ${r.serverWarnings.length} warning line(s), first: ${r.serverWarnings[0]}`)
  }
  return out.join('\n')
}

/** Writes the results as pretty JSON, creating the folder (it is git-ignored). */
export async function writeJson(file: string, results: BenchResults): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, JSON.stringify(results, null, 2) + '\n')
}

/** Left-aligned first column, right-aligned numbers: easy to scan in a terminal. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => [...(row[col] ?? '')].length)))
  return rows
    .map((row) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join('  ').trimEnd())
    .join('\n')
}

function failures(r: LoadResult): string {
  return `${int(r.requests)} responses, ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`
}

function mark(ok: boolean): string {
  return ok ? '✓' : '✗'
}

function int(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

function ms(n: number): string {
  return n < 10 ? `${n.toFixed(1)} ms` : `${int(n)} ms`
}

function mb(n: number): string {
  return `${int(n)} MB`
}

function seconds(n: number): string {
  return `${(n / 1000).toFixed(1)} s`
}

function pct(n: number): string {
  return `${Math.round(n * 100)}%`
}
