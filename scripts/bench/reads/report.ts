// The reads section of the report: cold start, memory and throughput next to the bare baseline, then the
// varied mix and the in-process query times.
import type { LoadSettings } from '../common/load.ts'
import { failures, int, mark, mb, ms, pct, table } from '../common/format.ts'
import { READ_BUDGETS } from './budgets.ts'
import { formatInProcess, formatMix } from './report-queries.ts'
import type { ReadResults } from './results.ts'

/** Renders the reads section, from the server's record count to the in-process table. */
export function formatReads(r: ReadResults, s: LoadSettings): string {
  const out = [
    `Server: ${r.coldStart.records}`,
    '',
    table([
      ['Cold start and memory', 'measured', 'budget', ''],
      [
        'spawn -> "Almanac is serving"',
        ms(r.coldStart.servingLineMs),
        `<= ${ms(READ_BUDGETS.readyMs)}`,
        mark(r.coldStart.servingLineMs <= READ_BUDGETS.readyMs),
      ],
      [
        'spawn -> first 200 of default list',
        ms(r.coldStart.firstListMs),
        `<= ${ms(READ_BUDGETS.readyMs)}`,
        mark(r.coldStart.firstListMs <= READ_BUDGETS.readyMs),
      ],
      ['  of which that first request', ms(r.coldStart.firstListRequestMs), '', ''],
      ['server\'s own "ready in"', r.coldStart.serverReadyMs === null ? 'n/a' : ms(r.coldStart.serverReadyMs), '', ''],
      [
        'RSS after load',
        mb(r.memory.afterLoadMb),
        `<= ${mb(READ_BUDGETS.rssMb)}`,
        mark(r.memory.afterLoadMb <= READ_BUDGETS.rssMb),
      ],
      [
        'RSS after load tests',
        mb(r.memory.afterTestsMb),
        `<= ${mb(READ_BUDGETS.rssMb)}`,
        mark(r.memory.afterTestsMb <= READ_BUDGETS.rssMb),
      ],
      peakRow('peak RSS (VmHWM)', r.memory.peakMb),
      [
        'RSS after varied mix',
        mb(r.memory.afterMixMb),
        `<= ${mb(READ_BUDGETS.rssMb)}`,
        mark(r.memory.afterMixMb <= READ_BUDGETS.rssMb),
      ],
      peakRow('peak RSS after varied mix', r.memory.peakAfterMixMb),
    ]),
    'Content was just written, so the start reads from the page cache; RSS under load saw-tooths with major GCs,',
    'so "after load tests" is a point sample and the peak is the steadier number. The varied mix touches every',
    "language: it adds four search indexes and each event's memoized JSON per language it was served in.",
    '',
    `Throughput: autocannon, ${s.connections} connections, ${s.seconds} s per target after ${s.warmupSeconds} s warm-up, loopback`,
    table([
      ['target', 'bytes', 'almanac req/s', 'p99', 'bare h3 req/s', 'p99', 'ratio', `>= ${pct(READ_BUDGETS.ratio)}`],
      ...r.targets.map((t) => [
        `${t.name} ${t.path}`,
        int(t.responseBytes),
        int(t.almanac.requestsPerSec),
        ms(t.almanac.latencyP99Ms),
        int(t.bare.requestsPerSec),
        ms(t.bare.latencyP99Ms),
        pct(t.ratio),
        mark(t.ratio >= READ_BUDGETS.ratio),
      ]),
    ]),
    ...r.targets.map((t) => `  ${t.name}: almanac ${failures(t.almanac)}; bare ${failures(t.bare)}`),
  ]
  out.push('', formatMix(r.mix, s, READ_BUDGETS), '', formatInProcess(r.inProcess, READ_BUDGETS))
  return out.join('\n')
}

function peakRow(label: string, peak: number | null): string[] {
  return [
    label,
    peak === null ? 'n/a' : mb(peak),
    `<= ${mb(READ_BUDGETS.rssMb)}`,
    peak === null ? '' : mark(peak <= READ_BUDGETS.rssMb),
  ]
}
