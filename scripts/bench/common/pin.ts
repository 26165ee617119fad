// Pinning: the server on one core and the load generator on another, with `taskset -c`, so neither steals
// the other's cycles. Where `taskset` is missing (macOS, a minimal container) everything runs unpinned.
import { execFileSync } from 'node:child_process'
import os from 'node:os'

/** The server's core and the load generator's; the set-up on a 2-core machine. */
export const SERVER_CORE = 0
export const LOAD_CORE = 1

let found: boolean | undefined

/** Whether `taskset` runs here and the machine has the two cores to pin to. */
export function canPin(): boolean {
  if (found !== undefined) return found
  found = os.cpus().length >= 2 && runs('taskset', ['-c', '0', 'true'])
  return found
}

/** One line for the report header: what was pinned where, or why nothing was. */
export function pinningNote(): string {
  if (canPin()) return `pinned with taskset: servers on core ${SERVER_CORE}, load generator on core ${LOAD_CORE}`
  const why = os.cpus().length < 2 ? 'fewer than 2 cores' : 'taskset not found'
  return `not pinned (${why}): servers and load generator share every core`
}

/** The command and arguments that run `command args` on `core`, or unchanged when pinning is not possible. */
export function onCore(core: number, command: string, args: string[]): [string, string[]] {
  return canPin() ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]
}

/** Whether a program is on PATH and exits 0 with these arguments. */
export function runs(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 5000 })
    return true
  } catch {
    return false
  }
}
