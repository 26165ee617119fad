import { readFileSync } from 'node:fs'
import { rootCommand } from './commands.ts'
import { exitWith } from './exit-code.ts'
import { ignoreClosedPipes } from './pipes.ts'
import { runCli } from './run.ts'

/** The version in package.json. */
function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return manifest.version
}

/** The almanac command: every command and subcommand, its help, and its exit code. */
export function main(argv: string[]): Promise<number> {
  return runCli(rootCommand(version()), argv)
}

const argv = process.argv.slice(2)
// A reader that goes away (`almanac check | head -1`, `almanac serve | head`) ends what is printed, never the command.
ignoreClosedPipes()
exitWith(main(argv))
