// autocannon as the load generator when wrk is missing: run in a child process (cannon-child.ts) on the load
// core, so it never shares an event loop or a core with the bench process or the server.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { LoadJob, RoundResult } from './load.ts'
import { LOAD_CORE, onCore } from './pin.ts'

const run = promisify(execFile)
const CHILD = fileURLToPath(new URL('./cannon-child.ts', import.meta.url))

/** The job's warm-up and rounds, run by one autocannon child that prints its rounds as JSON. */
export async function runCannon(job: LoadJob): Promise<RoundResult[]> {
  const dir = await mkdtemp(join(os.tmpdir(), 'almanac-cannon-'))
  try {
    const file = join(dir, 'job.json')
    await writeFile(file, JSON.stringify(job))
    const [command, args] = onCore(LOAD_CORE, process.execPath, ['--import', 'tsx', CHILD, file])
    const s = job.settings
    const timeout = (s.warmupSeconds + s.rounds * s.seconds + 60) * 1000
    const { stdout } = await run(command, args, { timeout, maxBuffer: 1 << 20 })
    return JSON.parse(stdout.trim().split('\n').pop()!) as RoundResult[]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
