import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'

export const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')

/** What a finished run of the CLI said and how it ended. */
export interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the real CLI to its end (killed after `ms`); the environment starts without ALMANAC_* settings. */
export function runCli(args: string[], cwd: string, env: Record<string, string> = {}, ms = 20_000): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(env), stdio: 'pipe' })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), ms)
    // 'close', not 'exit': a busy machine can tell the exit before the last of the output has been read.
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ code, stdout, stderr })
    })
  })
}

/** A server started by the CLI: its output so far, its end, and a way to wait for a line. */
export interface Running {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  exit: Promise<number | null>
  /** Resolves with the first match of `pattern` in stdout+stderr; rejects after `ms` or when the process ends first. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>
  stop(): Promise<number | null>
}

/**
 * Starts a long-running command (serve, preview), node given `nodeFlags` before the CLI; `stop` sends SIGTERM and
 * waits for the end.
 */
export function startCli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
): Running {
  const child = spawn(process.execPath, [...nodeFlags, BIN, ...args], { cwd, env: cleanEnv(env), stdio: 'pipe' })
  let stdout = ''
  let stderr = ''
  let ended = false
  const exit = new Promise<number | null>((done) =>
    child.on('close', (code) => {
      ended = true
      done(code)
    }),
  )
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk))
  const waitFor = (pattern: RegExp, ms = 20_000) =>
    new Promise<RegExpExecArray>((done, fail) => {
      const started = Date.now()
      const poll = () => {
        const found = pattern.exec(stdout + stderr)
        if (found) return done(found)
        if (ended || Date.now() - started > ms) return fail(new Error(`no ${String(pattern)} in:\n${stdout}${stderr}`))
        setTimeout(poll, 25)
      }
      poll()
    })
  const stop = () => {
    if (!ended) child.kill('SIGTERM')
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000)
    return exit.finally(() => clearTimeout(force))
  }
  return { child, stdout: () => stdout, stderr: () => stderr, exit, waitFor, stop }
}

/** The test's environment without ALMANAC_* settings or colour forcing, plus `extra`. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('ALMANAC_') && key !== 'FORCE_COLOR' && key !== 'NO_COLOR') env[key] = value
  }
  return { ...env, ...extra }
}
