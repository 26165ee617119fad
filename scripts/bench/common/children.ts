// The server processes the bench spawns: start, wait for a line, stop, reap on any exit, memory, a free port.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { onCore } from './pin.ts'

/** A spawned server process with its output so far and a promise of its exit. */
export interface Child {
  proc: ChildProcess
  pid: number
  spawnedAt: number
  lines: string[]
  exited: Promise<number | null>
}

const live = new Set<ChildProcess>()

/**
 * Spawns `node <args>`, on `core` when given and pinning is possible (taskset execs node, so the pid is node's);
 * the child is tracked so `killAllSync` can reap it on any exit path.
 */
export function startChild(args: string[], cwd: string, core?: number, env: NodeJS.ProcessEnv = process.env): Child {
  const spawnedAt = performance.now()
  const [command, all] = core === undefined ? [process.execPath, args] : onCore(core, process.execPath, args)
  const proc = spawn(command, all, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  if (proc.pid === undefined) throw new Error(`cannot spawn node ${args.join(' ')}`)
  live.add(proc)
  const lines: string[] = []
  const collect = (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== ''),
    )
  proc.stdout!.on('data', collect)
  proc.stderr!.on('data', collect)
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => {
      live.delete(proc)
      resolve(code)
    }),
  )
  return { proc, pid: proc.pid, spawnedAt, lines, exited }
}

/** Resolves with the first output line matching `pattern` and when it arrived; rejects on exit or timeout. */
export function waitForLine(child: Child, pattern: RegExp, timeoutMs: number): Promise<{ line: string; at: number }> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const line = child.lines.find((l) => pattern.test(l))
      if (!line) return
      cleanup()
      resolve({ line, at: performance.now() })
    }
    const timer = setTimeout(() => fail(`no line matching ${pattern} within ${timeoutMs} ms`), timeoutMs)
    const onExit = (code: number | null) => fail(`child exited (code ${code}) before printing ${pattern}`)
    const fail = (why: string) => {
      cleanup()
      reject(new Error(`${why}\n--- child output ---\n${child.lines.slice(-20).join('\n')}`))
    }
    const cleanup = () => {
      clearTimeout(timer)
      child.proc.stdout!.off('data', check)
      child.proc.stderr!.off('data', check)
      child.proc.off('exit', onExit)
    }
    // Listeners run after startChild's collector (registration order), so `lines` is current here.
    child.proc.stdout!.on('data', check)
    child.proc.stderr!.on('data', check)
    child.proc.once('exit', onExit)
    check()
  })
}

/** The error with the child's last output lines appended: a failing server usually says why on stderr. */
export function withOutput(error: unknown, child: Child): Error {
  const message = error instanceof Error ? error.message : String(error)
  if (message.includes('--- child output ---')) return error as Error
  return new Error(`${message}\n--- child output ---\n${child.lines.slice(-20).join('\n')}`)
}

/** SIGTERM, then SIGKILL if the child has not exited within `graceMs`. */
export async function stopChild(child: Child, graceMs = 3000): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return
  child.proc.kill('SIGTERM')
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), graceMs)
  await child.exited
  clearTimeout(timer)
}

/** Kills every child still running; synchronous so it works from an `exit` handler. */
export function killAllSync(): void {
  for (const proc of live) proc.kill('SIGKILL')
  live.clear()
}

/** Resident and peak resident memory of a process in MB: /proc on Linux, `ps` elsewhere (no peak there). */
export async function memoryOf(pid: number): Promise<{ rssMb: number; peakMb: number | null }> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 }
  } catch {
    const kb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim())
    return { rssMb: kb / 1024, peakMb: null }
  }
}

/** A port nobody listens on right now; the small race until the server binds it is acceptable here. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}
