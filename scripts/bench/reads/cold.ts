// Cold start beyond the 10k tree: how much of a start is loading the TypeScript loader (tsx), and the start
// over a bigger tree (BENCH_COLD_40K events, 40,000 by default; 0 skips it), spawn to first 200.
import { execFileSync } from 'node:child_process'
import { compiledIsCurrent } from '../../../bin/compiled.js'
import { join } from 'node:path'
import { freePort, startChild, stopChild, waitForLine, withOutput } from '../common/children.ts'
import { firstOk } from '../common/client.ts'
import { generateContent } from '../common/content.ts'
import { envNumber } from '../common/load.ts'
import { ROOT } from '../common/paths.ts'
import { flushDisk } from '../common/run.ts'
import { onCore, SERVER_CORE } from '../common/pin.ts'
import { API, serveCommand, START_TIMEOUT_MS } from '../common/server.ts'

/** The loader's share: `node -e 0` and `node --import tsx -e 0`, median of a few spawns each. */
export interface LoaderShare {
  nodeMs: number
  tsxMs: number
  loaderMs: number
  /** Whether bin/almanac.js loads tsx for this run: only when lib/ is not the compilation of src/ as it is now. */
  cliUsesTsx: boolean
}

/** Spawn to first 200 over a tree of `events` events. */
export interface BigStart {
  events: number
  files: number
  servingLineMs: number
  firstListMs: number
}

const SPAWNS = 5

/** Times bare node and node with tsx loaded, each pinned like the server, and says whether the CLI uses tsx. */
export function measureLoader(): LoaderShare {
  const median = (args: string[]) => {
    const times = Array.from({ length: SPAWNS }, () => {
      const [command, all] = onCore(SERVER_CORE, process.execPath, args)
      const started = performance.now()
      execFileSync(command, all, { cwd: ROOT, stdio: 'ignore' })
      return performance.now() - started
    }).sort((a, b) => a - b)
    return times[Math.floor(SPAWNS / 2)]!
  }
  const nodeMs = median(['-e', '0'])
  const tsxMs = median(['--import', 'tsx', '-e', '0'])
  const cliUsesTsx = !compiledIsCurrent(join(ROOT, 'src'), join(ROOT, 'lib'))
  return { nodeMs, tsxMs, loaderMs: tsxMs - nodeMs, cliUsesTsx }
}

/**
 * Generates a tree of BENCH_COLD_40K events beside the main one and times a start over it. The tree stays until the
 * run ends, as every bulky folder of a run does (`withCorpus`, common/run.ts).
 */
export async function measureBigStart(tmp: string): Promise<BigStart | undefined> {
  const events = envNumber('BENCH_COLD_40K', 40_000)
  if (events === 0) return undefined
  const dir = join(tmp, `content-${events}`)
  console.error(`cold start: generating ${events.toLocaleString('en')} events …`)
  const corpus = await generateContent(dir, events)
  flushDisk()
  const port = await freePort()
  const child = startChild(serveCommand(dir, port), tmp, SERVER_CORE)
  try {
    // Side by side from the spawn: the banner waits for the watcher, the first answer need not.
    const [serving, first] = await Promise.all([
      waitForLine(child, /^Almanac is serving/, START_TIMEOUT_MS * 2),
      firstOk(`http://127.0.0.1:${port}${API}/events`, START_TIMEOUT_MS * 2),
    ])
    const servingLineMs = serving.at - child.spawnedAt
    return { events, files: corpus.files, servingLineMs, firstListMs: first.at - child.spawnedAt }
  } catch (error) {
    throw withOutput(error, child)
  } finally {
    await stopChild(child)
  }
}
