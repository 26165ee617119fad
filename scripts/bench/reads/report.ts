// The reads section of the report: cold start and memory, then every URL next to its limit, the varied mix,
// and the in-process query times.
import { failures, int, mark, mb, ms, table } from '../common/format.ts'
import { describeLoad, type LoadSettings } from '../common/load.ts'
import { READ_GOALS as G } from './budgets.ts'
import { formatInProcess } from './report-queries.ts'
import type { ReadResults, TargetResult } from './results.ts'

/** Renders the reads section, from the server's record count to the in-process table. */
export function formatReads(r: ReadResults, s: LoadSettings): string {
  const c = r.coldStart
  const l = r.loader
  const big = r.bigStart
  const out = [
    `Server: ${c.records}`,
    `Cold start: spawn -> first 200 of the default list ${ms(c.firstListMs)} (${startRuns(c.firstListRunsMs)}; the measured ` +
      `server's first request ${ms(c.firstListRequestMs)}); that server -> "Almanac is serving" (watcher ready) ${ms(c.servingLineMs)} (its own "ready in" ` +
      `${c.serverReadyMs === null ? 'n/a' : ms(c.serverReadyMs)})`,
    `  loader: node -e 0 ${ms(l.nodeMs)}, node --import tsx -e 0 ${ms(l.tsxMs)}: tsx costs ${ms(l.loaderMs)} per start ` +
      `(bin/almanac.js ${l.cliUsesTsx ? 'loads tsx: lib/ is not the compilation of src/ as it is' : 'runs the compiled lib/ and does not load tsx'})`,
    big
      ? `  over ${int(big.events)} events (${int(big.files)} files): first 200 ${ms(big.firstListMs)}, "serving" ${ms(big.servingLineMs)}`
      : '  bigger tree: skipped (BENCH_COLD_40K=0)',
    `Memory (RSS): ${mb(r.memory.afterLoadMb)} after start, ${mb(r.memory.afterTestsMb)} after the URLs, ` +
      `${mb(r.memory.afterMixMb)} after the varied mix ran ${r.memory.soakSeconds} s` +
      (r.memory.peakMb === null ? '' : `, peak ${mb(r.memory.peakMb)}`),
    '',
    `Throughput: ${describeLoad(s)}, loopback. Limit: bare node:http replaying the exact status, headers and body`,
    'Almanac sent for the same URL (for the varied mix, each path its own answer), running beside Almanac on the same',
    "core and loaded round for round with it. CPU: each server's CPU time (every thread) per request over its",
    'measured rounds; "cpu ratio" is the limit\'s over Almanac\'s, what the rate ratio would be with the core all theirs.',
    table([
      [
        'URL',
        'bytes',
        'almanac req/s',
        'p99',
        'cpu/req',
        'limit req/s',
        'p99',
        'cpu/req',
        'ratio',
        'cpu ratio',
        `>= ${G.ratio}`,
      ],
      ...r.targets.map((t) => row(t, G.ratio)),
      row(
        { ...r.mix, name: `varied (${int(r.mix.paths)} paths)`, bytes: r.mix.meanBytes },
        G.mixRatio,
        `>= ${G.mixRatio}`,
      ),
    ]),
    ...[...r.targets, { ...r.mix, name: 'varied' }]
      .filter((t) => t.almanac.errors + t.almanac.non2xx + t.limit.errors + t.limit.non2xx > 0)
      .map((t) => `  ${t.name}: almanac ${failures(t.almanac)}; limit ${failures(t.limit)}`),
    `  varied: ${Object.entries(r.mix.kinds)
      .map(([k, n]) => `${k} ${int(n)}`)
      .join(', ')}; captured in ${ms(r.mix.verifyMs)}, ${r.mix.dropped} dropped (not 200), bytes = mean answer`,
    `  rounds (req/s, almanac | limit): ${[...r.targets, { ...r.mix, name: 'varied' }]
      .map((t) => `${t.name} ${t.almanac.roundsPerSec.map(int).join('/')} | ${t.limit.roundsPerSec.map(int).join('/')}`)
      .join('; ')}`,
    '',
    formatInProcess(r.inProcess, G),
  ]
  return out.join('\n')
}

type Row = Pick<TargetResult, 'name' | 'bytes' | 'almanac' | 'limit' | 'ratio' | 'cpuRatio'>

function row(t: Row, min: number, note?: string): string[] {
  const ratio = `${t.ratio.toFixed(2)}${note ? ` (${note})` : ''}`
  return [
    t.name,
    int(t.bytes),
    int(t.almanac.requestsPerSec),
    ms(t.almanac.latencyP99Ms),
    us(t.almanac.cpuUsPerRequest),
    int(t.limit.requestsPerSec),
    ms(t.limit.latencyP99Ms),
    us(t.limit.cpuUsPerRequest),
    ratio,
    t.cpuRatio === null ? 'n/a' : t.cpuRatio.toFixed(2),
    mark(t.ratio >= min),
  ]
}

/** Microseconds of CPU, or n/a where /proc could not tell. */
function us(value: number | null): string {
  return value === null ? 'n/a' : `${value.toFixed(0)} µs`
}

/** "median of 3 starts: a, b, c", or "one start" when BENCH_COLD_STARTS asked for one. */
function startRuns(runs: readonly number[]): string {
  return runs.length === 1 ? 'one start' : `median of ${runs.length} starts: ${runs.map(ms).join(', ')}`
}
