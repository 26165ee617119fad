// Waiting for a server to go quiet: after a burst of writes or a checkout it may keep working (its file
// watcher rescans folders), and a measurement started then would be charged for the previous one's work.
import { readFile } from 'node:fs/promises'
import { sleep } from './client.ts'

/** How long the wait took, and whether the process really went quiet (false: gave up at the limit). */
export interface Settled {
  ms: number
  idle: boolean
}

const SAMPLE_MS = 250
/** Below this share of one core over a sample, the process counts as quiet. */
const QUIET_SHARE = 0.05
/** Quiet samples in a row needed: one quiet sample can fall between two rescans. */
const QUIET_SAMPLES = 4
const TICKS_PER_SECOND = 100 // USER_HZ, 100 on every Linux Node supports

/** Polls the process's CPU time until it has been quiet for a second, or `limitMs` passed; instant without /proc. */
export async function waitForIdle(pid: number, limitMs: number): Promise<Settled> {
  const started = performance.now()
  let last = await cpuMs(pid)
  if (last === null) return { ms: 0, idle: true }
  let quiet = 0
  while (quiet < QUIET_SAMPLES) {
    if (performance.now() - started > limitMs) return { ms: performance.now() - started, idle: false }
    const before = performance.now()
    await sleep(SAMPLE_MS)
    const now = await cpuMs(pid)
    if (now === null) break
    quiet = (now - last) / (performance.now() - before) < QUIET_SHARE ? quiet + 1 : 0
    last = now
  }
  return { ms: performance.now() - started, idle: true }
}

/** User plus system CPU time of a process in ms, from /proc/<pid>/stat; null where there is none. */
async function cpuMs(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name, which is in parentheses and may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000
  } catch {
    return null
  }
}
