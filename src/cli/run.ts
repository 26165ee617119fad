import { runCommand, type ArgsDef, type CommandDef } from 'citty'
import { UsersError } from '../auth/users-file.ts'
import { ConfigError } from '../config-file.ts'
import { didYouMean } from '../suggest.ts'
import { mistakeIn } from './args.ts'
import { CliError } from './errors.ts'
import { either, plain, usageFor, type Out } from './usage.ts'

const HELP = ['--help', '-h']

/** Where the runner prints: usage and the version on `out`, mistakes on `err`. */
export interface Streams {
  out: Out
  err: Out
}

/**
 * Runs the command `argv` names under `root`: help, version, mistakes in the arguments (named in one
 * line, then the usage, exit 1), and user mistakes the command throws (one line, exit 1). Answers the exit code.
 */
export async function runCli(
  root: CommandDef,
  argv: string[],
  io: Streams = { out: process.stdout, err: process.stderr },
): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    io.out.write(`almanac ${(await resolved(root.meta))?.version ?? ''}\n`)
    return 0
  }
  if (argv[0] === 'help') return runCli(root, [...argv.slice(1), '--help'], io)
  const found = await descend(root, argv, io)
  if (typeof found === 'number') return found
  const { command, path, rest } = found
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest
  if (options.some((token) => HELP.includes(token))) return usage(command, io.out, 0)
  const problem = mistakeIn(rest, ((await resolved(command.args)) ?? {}) as ArgsDef)
  if (problem) return mistake(command, path, problem, io.err)
  return run(command, path, rest, io)
}

/**
 * Follows subcommand names down to the command that runs; answers an exit code when it stops on the way
 * (help, a mistake).
 */
async function descend(
  root: CommandDef,
  argv: string[],
  io: Streams,
): Promise<{ command: CommandDef; path: string[]; rest: string[] } | number> {
  let command = root
  const path: string[] = []
  let rest = argv
  for (let subs = await resolved(command.subCommands); subs; subs = await resolved(command.subCommands)) {
    const [next, ...after] = rest
    if (next === undefined)
      return path.length > 0
        ? mistake(command, path, `a subcommand is needed (${either(Object.keys(subs))})`, io.err)
        : usage(command, io.err, 1)
    // `almanac --help serve` asks for serve's help, as `almanac serve --help` does.
    if (HELP.includes(next) && after[0] !== undefined && !after[0].startsWith('-')) {
      rest = [...after, next]
      continue
    }
    if (HELP.includes(next)) return usage(command, io.out, 0)
    if (next.startsWith('-')) return mistake(command, path, `unknown option ${next}`, io.err)
    const sub = Object.hasOwn(subs, next) ? await resolved(subs[next]) : undefined
    if (!sub)
      return mistake(
        command,
        [],
        `unknown command ${JSON.stringify([...path, next].join(' '))}${didYouMean(next, Object.keys(subs))}`,
        io.err,
      )
    command = sub
    path.push(next)
    rest = after
  }
  return { command, path, rest }
}

async function run(command: CommandDef, path: string[], rest: string[], io: Streams): Promise<number> {
  try {
    const { result } = await runCommand(command, { rawArgs: rest })
    return typeof result === 'number' ? result : 0
  } catch (error) {
    if (error instanceof Error && error.name === 'CLIError') return mistake(command, path, plain(error.message), io.err)
    if (error instanceof ConfigError || error instanceof CliError || error instanceof UsersError) {
      io.err.write(`almanac: ${error.message}\n`)
      return 1
    }
    throw error
  }
}

/** One line naming the mistake, then the usage of the command it was made in; exit code 1. */
async function mistake(command: CommandDef, path: string[], what: string, err: Out): Promise<number> {
  err.write(`almanac: ${path.length > 0 ? `${path.join(' ')}: ` : ''}${what}\n\n`)
  return usage(command, err, 1)
}

async function usage(command: CommandDef, stream: Out, code: number): Promise<number> {
  // The root (the one command with a version) names the two forms citty's usage does not show.
  const root = (await resolved(command.meta))?.version !== undefined
  stream.write(`${await usageFor(command, stream)}${root ? ROOT_NOTE : ''}`)
  return code
}

const ROOT_NOTE = "Also: almanac help [command] (a command's help), almanac --version.\n"

async function resolved<T>(value: T | Promise<T> | (() => T | Promise<T>) | undefined): Promise<T | undefined> {
  return typeof value === 'function' ? (value as () => T | Promise<T>)() : value
}
