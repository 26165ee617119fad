import { readFileSync } from 'node:fs'
import { rootCommand } from './commands.ts'
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
// No top-level await: the bundle of lib/ is CommonJS (scripts/bundle.mjs), which has none. A command whose promise
// never settled when the process runs out of work ends as Node ends an unsettled top-level await: exit code 13.
let settled = false
void main(argv).then((code) => {
  settled = true
  if (code !== 0) process.exitCode = code
})
process.on('exit', (code) => {
  if (settled || code !== 0) return
  console.error('almanac: the command stopped before it finished')
  process.exitCode = 13
})
