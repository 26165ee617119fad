import { parseArgs } from 'node:util'
import { ConfigError } from '../config.ts'
import { serve } from './serve.ts'

const USAGE = `Usage: almanac <command> [options]

Commands:
  serve   [--content DIR] [--port N] [--host H] [--config FILE]   serve the API live

Settings also come from ALMANAC_* environment variables and almanac.config.yaml (see README).`

/** The almanac command: picks a subcommand and reports failures as one line and exit code 1. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  try {
    if (command === 'serve') return await serve(parseFlags(rest))
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      console.log(USAGE)
      return command === undefined ? 1 : 0
    }
    console.error(`almanac: unknown command "${command}"\n\n${USAGE}`)
    return 1
  } catch (error) {
    if (error instanceof ConfigError || error instanceof CliError) {
      console.error(`almanac: ${error.message}`)
      return 1
    }
    throw error
  }
}

/** A user mistake on the command line: printed without a stack trace. */
export class CliError extends Error {}

/** The flags every command understands; unknown flags are an error, not ignored. */
export function parseFlags(args: string[]) {
  try {
    const { values } = parseArgs({
      args,
      options: {
        content: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        config: { type: 'string' },
        users: { type: 'string' },
        out: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    })
    return values
  } catch (error) {
    throw new CliError((error as Error).message)
  }
}

const code = await main(process.argv.slice(2))
if (code !== 0) process.exitCode = code
