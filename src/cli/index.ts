import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { UsersError } from '../auth/users.ts'
import { ConfigError } from '../config.ts'
import { CliError } from './errors.ts'
import { build } from './build.ts'
import { check } from './check.ts'
import { preview } from './preview.ts'
import { serve } from './serve.ts'
import { user } from './user.ts'

const USAGE = `Usage: almanac <command> [options]

Commands:
  serve   [--content DIR] [--port N] [--host H] [--users FILE] [--build] [--config FILE]   serve the API live
  build   [--content DIR] [--out DIR] [--base-url URL] [--watch] [--workers N]   the public API as static files
  preview [--out DIR] [--port N]                                   serve the built files like a static host
  check   [--content DIR] [--fix] [--format text|github|json]   validate the content tree (exit 1 on errors)
  user    add LOGIN --role ROLE [--password PW] | list | remove LOGIN | reset-password LOGIN

Settings also come from ALMANAC_* environment variables and almanac.config.yaml (see README).`

const COMMANDS = ['serve', 'build', 'preview', 'check', 'user']

/** One command's line of the usage, with the note on settings. */
function usageOf(command: string): string {
  const line = USAGE.split('\n').find((text) => text.trimStart().startsWith(`${command} `)) ?? ''
  return `Usage: almanac ${line.trim().replace(/^(\S+)\s+/, '$1 ')}\n\nSettings also come from ALMANAC_* environment variables and almanac.config.yaml (see README).`
}

/** The version in package.json. */
function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  return manifest.version
}

/** The almanac command: picks a subcommand and reports failures as one line and exit code 1. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === '--version' || command === '-v' || command === 'version') {
    console.log(`almanac ${version()}`)
    return 0
  }
  // `almanac <command> --help` shows that command's line of the usage; exit 0.
  if (command && COMMANDS.includes(command) && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(usageOf(command))
    return 0
  }
  try {
    if (command === 'serve') {
      const { values } = parseFlags(rest)
      return await serve({ ...strings(values), ...(values.build === true ? { build: 'true' } : {}) })
    }
    if (command === 'check') return await check(parseFlags(rest).values)
    if (command === 'build') return await build(parseFlags(rest).values)
    if (command === 'preview') return await preview(strings(parseFlags(rest).values))
    if (command === 'user') {
      const { values, positionals } = parseFlags(rest, true)
      return user(positionals, strings(values))
    }
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      console.log(USAGE)
      return command === undefined ? 1 : 0
    }
    console.error(`almanac: unknown command "${command}"\n\n${USAGE}`)
    return 1
  } catch (error) {
    if (error instanceof ConfigError || error instanceof CliError || error instanceof UsersError) {
      console.error(`almanac: ${error.message}`)
      return 1
    }
    throw error
  }
}

/** The text flags of a command (switches such as --fix are read by the commands that have them). */
function strings(values: Record<string, string | boolean | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === 'string')) as Record<string, string | undefined>
}

/** The flags every command understands; unknown flags are an error, not ignored. */
export function parseFlags(args: string[], positionals = false) {
  try {
    return parseArgs({
      args,
      options: {
        content: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        config: { type: 'string' },
        users: { type: 'string' },
        out: { type: 'string' },
        role: { type: 'string' },
        password: { type: 'string' },
        fix: { type: 'boolean' },
        watch: { type: 'boolean' },
        build: { type: 'boolean' },
        'base-url': { type: 'string' },
        workers: { type: 'string' },
        format: { type: 'string' },
      },
      strict: true,
      allowPositionals: positionals,
    })
  } catch (error) {
    throw new CliError((error as Error).message)
  }
}

const code = await main(process.argv.slice(2))
if (code !== 0) process.exitCode = code
