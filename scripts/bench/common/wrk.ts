// wrk as the load generator: 1 thread, pinned to the load core, its text output parsed; a Lua script cycles
// through many paths when the job has them.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { LoadJob, RoundResult } from './load.ts'
import { LOAD_CORE, onCore, runs } from './pin.ts'

const run = promisify(execFile)
let found: boolean | undefined

/** Whether wrk is on PATH (BENCH_TOOL=autocannon forces autocannon). */
export function hasWrk(): boolean {
  if (process.env.BENCH_TOOL === 'autocannon') return false
  found ??= runs('wrk', ['--version']) || runs('sh', ['-c', 'command -v wrk'])
  return found
}

// One cursor over the paths in the paths file (the script's argument), shared by every connection of the thread.
const CYCLE = `local paths = {}
local i = 0
function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
end
function request()
  i = i % #paths + 1
  return wrk.format(nil, paths[i])
end
`

/** The warm-up (discarded) and the measured rounds of one job. */
export async function runWrk(job: LoadJob): Promise<RoundResult[]> {
  const dir = await mkdtemp(join(os.tmpdir(), 'almanac-wrk-'))
  try {
    const target = job.paths ? await cycleScript(dir, job.url, job.paths) : [job.url]
    const once = (seconds: number) => wrkRound(job, seconds, target)
    if (job.settings.warmupSeconds > 0) await once(job.settings.warmupSeconds)
    const rounds: RoundResult[] = []
    for (let i = 0; i < job.settings.rounds; i++) rounds.push(await once(job.settings.seconds))
    return rounds
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** wrk's arguments after its options: the cycling script, the URL, and the paths file for the script. */
async function cycleScript(dir: string, url: string, paths: readonly string[]): Promise<string[]> {
  await writeFile(join(dir, 'cycle.lua'), CYCLE)
  await writeFile(join(dir, 'paths.txt'), `${paths.join('\n')}\n`)
  return ['-s', join(dir, 'cycle.lua'), url, '--', join(dir, 'paths.txt')]
}

async function wrkRound(job: LoadJob, seconds: number, target: string[]): Promise<RoundResult> {
  const args = ['-t1', `-c${job.settings.connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--latency']
  const [command, all] = onCore(LOAD_CORE, 'wrk', [...args, ...target])
  const { stdout } = await run(command, all, { timeout: (seconds + 30) * 1000, maxBuffer: 1 << 20 })
  return parseWrk(stdout)
}

/** The numbers of wrk's report (its `--latency` distribution included). */
export function parseWrk(text: string): RoundResult {
  const find = (re: RegExp) => re.exec(text)?.[1]
  const requests = Number(find(/(\d+) requests in/) ?? NaN)
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text)
  return {
    requestsPerSec: Number(find(/Requests\/sec:\s+([\d.]+)/) ?? NaN),
    latencyP50Ms: duration(find(/^\s+50%\s+(\S+)/m)),
    latencyP99Ms: duration(find(/^\s+99%\s+(\S+)/m)),
    latencyMaxMs: duration(/^\s+Latency\s+\S+\s+\S+\s+(\S+)/m.exec(text)?.[1]),
    requests,
    bytesPerSec: size(find(/Transfer\/sec:\s+(\S+)/)),
    errors: errors ? Number(errors[1]) + Number(errors[2]) + Number(errors[3]) : 0,
    timeouts: errors ? Number(errors[4]) : 0,
    non2xx: Number(find(/Non-2xx or 3xx responses: (\d+)/) ?? 0),
  }
}

/** wrk's `373.00us`, `1.23ms`, `2.00s`, `1.00m` in ms. */
function duration(text: string | undefined): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '')
  if (!m) return NaN
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us']
}

/** wrk's `630.00MB` (binary units) in bytes. */
function size(text: string | undefined): number {
  const m = /^([\d.]+)([KMGT]?B)$/.exec(text ?? '')
  if (!m) return NaN
  return Number(m[1]) * 1024 ** ['B', 'KB', 'MB', 'GB', 'TB'].indexOf(m[2]!)
}
