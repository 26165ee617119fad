import { requireContentFolder, warnIfEmpty } from './content-folder.ts'
import { configNote, settings } from './settings.ts'
import { overHostLimit, scopedFeedsLeftOut, slugPagesLeftOut, switchOptions, switchSettings } from './build-switches.ts'
import { createSiteBuilder, type BuildResult } from '../prerender/site-builder.ts'
import { rebuildOnChange } from '../prerender/rebuild-on-change.ts'
import { createStore } from '../content/store.ts'
import { watchContent } from '../content/watch.ts'
import { CliError } from './errors.ts'
import { siteOf } from './site.ts'
import { problemLine } from '../content/checks/problems.ts'

type Flags = Record<string, string | boolean | undefined>

/** `almanac build [--watch]`: the public API as static files in `out`. */
export async function build(flags: Flags): Promise<number> {
  const { config, file } = settings(switchSettings(flags))
  requireContentFolder(config.content)
  console.error(configNote(file))
  warnIfEmpty(config.content)
  const store = await createStore(config.content, {
    defaultLanguage: config.default_language,
    fallback: config.fallback,
    timezone: config.timezone,
    onProblem: (problem) => console.warn(problemLine(`${config.content}/${problem.path}`, problem)),
  })
  const options = {
    store,
    site: siteOf(config, config.port),
    out: config.out,
    publicUrl: String(flags['base-url'] ?? (config.base_url || config.site_url || 'http://localhost:4173')),
    perPage: config.per_page,
    maxPerPage: config.max_per_page,
    ...switchOptions(config),
    ...(flags.workers === undefined ? {} : { workers: workerCount(flags.workers) }),
    ...(process.stderr.isTTY ? { onProgress: progressBar() } : {}),
  }
  const builder = createSiteBuilder(options)
  const result = await builder.full().catch((error: Error) => {
    throw new CliError(`build failed: ${error.message}`)
  })
  if (process.stderr.isTTY) process.stderr.write('\n')
  console.log(summary(result, config.out))
  for (const note of [
    scopedFeedsLeftOut(result, options.feeds),
    slugPagesLeftOut(result, options.slugPages),
    overHostLimit(result),
  ])
    if (note) console.error(note)
  if (flags.watch !== true) return 0
  const watching = watchContent(store, (error) => console.error(`almanac: ${error.message}`))
  const stop = rebuildOnChange(
    store,
    builder,
    (r) => console.log(summary(r, config.out)),
    (error) => console.error(`almanac: build failed: ${error.message}`),
  )
  console.log(`Watching ${config.content}; press Ctrl-C to stop`)
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await watching.close()
  await stop()
  return 0
}

/** `--workers N`: how many threads render a full build; 0 renders on the main thread. */
function workerCount(value: string | boolean): number {
  const count = Number(value)
  if (typeof value !== 'string' || !/^\d+$/.test(value) || count > 64)
    throw new CliError(`--workers must be a whole number from 0 to 64, not "${String(value)}"`)
  return count
}

/** One line: what was built, how big (in 10^6 bytes, as hosts' limits count), how long. */
export function summary(result: BuildResult, out: string): string {
  const megabytes = (result.bytes / 1e6).toFixed(1)
  return `Built ${result.files} files (${megabytes} MB) into ${out} in ${(result.ms / 1000).toFixed(1)} s: ${result.written} written, ${result.removed} removed`
}

/** A progress bar with counts and elapsed time, redrawn at most every 100 ms (terminals only). */
function progressBar(): (done: number, total: number) => void {
  const started = performance.now()
  let drawn = 0
  return (done, total) => {
    const now = performance.now()
    if (done < total && now - drawn < 100) return
    drawn = now
    const width = 30
    const filled = Math.round((done / total) * width)
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${((now - started) / 1000).toFixed(1)} s`,
    )
  }
}
