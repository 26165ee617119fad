import { type App, createApp } from '../app.ts'
import { requireContentFolder, warnIfEmpty } from './content-folder.ts'
import type { Config } from '../config.ts'
import { BUILD_SWITCHES } from './args.ts'
import { overHostLimit, scopedFeedsLeftOut, slugPagesLeftOut, switchOptions, switchSettings } from './build-switches.ts'
import { siteOf } from './site.ts'
import { openUsers } from '../auth/users.ts'
import { createSiteBuilder } from '../prerender/site-builder.ts'
import { rebuildOnChange } from '../prerender/rebuild-on-change.ts'
import { KINDS } from '../content/model/kinds.ts'
import { createStore, type Store } from '../content/store.ts'
import { NAMESPACE } from '../namespace.ts'
import { summary } from './build.ts'
import { watchContent } from '../content/watch.ts'
import { CliError } from './errors.ts'
import { createFirstAnswer } from './first-answer.ts'
import { collectNow, holdHeapNearLive, holdYoungGenerationForLoad } from './heap.ts'
import { listenHttp } from './listen.ts'
import { isBrokenPipe } from './pipes.ts'
import { problemLine } from '../content/checks/problems.ts'
import { configNote, requestLog, settings } from './settings.ts'
import { loadSanitizer } from '../write/sanitize.ts'

type Flags = Record<string, string | boolean | undefined>

/** `almanac serve`: loads the content tree and serves the API until SIGINT or SIGTERM. */
export async function serve(flags: Flags): Promise<number> {
  // The build's options shape files only --build writes: without it they would be taken and do nothing.
  if (flags.build !== true) {
    const idle = [...Object.keys(BUILD_SWITCHES), 'out'].filter((name) => flags[name] !== undefined)
    const given = idle[0] && (flags[idle[0]] === false ? `--no-${idle[0]}` : `--${idle[0]}`)
    if (given) throw new CliError(`serve: ${given} is for serve --build (without it nothing is written)`)
  }
  const { config, file } = settings(switchSettings(flags))
  requireContentFolder(config.content)
  warnIfEmpty(config.content)
  const started = performance.now()
  // A users file that cannot be read stops the start here, in one line, before anything listens.
  const users = openUsers(config.users)
  holdYoungGenerationForLoad()
  const store = await createStore(config.content, {
    defaultLanguage: config.default_language,
    fallback: config.fallback,
    assignIds: true,
    timezone: config.timezone,
    onProblem: (problem) => console.warn(problemLine(`${config.content}/${problem.path}`, problem)),
  })
  holdHeapNearLive()
  let handler: App['node'] | undefined
  const explicitPort = flags.port ? '--port' : process.env.ALMANAC_PORT ? 'ALMANAC_PORT' : false
  // Port 0 asks for any free port; a port the user named is theirs or nothing; the default may move on.
  const firstAnswer = createFirstAnswer()
  const listener = await listenHttp(
    firstAnswer.wrap((req, res) => void handler!(req, res)),
    {
      port: config.port,
      host: config.host,
      exact: explicitPort,
      log: requestLog(flags),
      warn: (line) => console.error(line),
    },
  )
  const app = createApp({
    store,
    site: siteOf(config, listener.port),
    perPage: config.per_page,
    maxPerPage: config.max_per_page,
    fallback: config.fallback,
    geolocDistance: config.geoloc_distance,
    users,
  })
  handler = app.node
  keepServingThroughStrayErrors()
  // The first answer goes out before the watcher's first scan takes the CPU; nothing edited meanwhile is missed.
  await firstAnswer.settled()
  const watching = watchContent(store, (error) =>
    console.error(`almanac: watching ${config.content}: ${error.message}`),
  )
  const stopBuilding =
    flags.build === true
      ? await keepBuilt(store, config, listener.port).catch(async (error: Error) => {
          await Promise.all([listener.close(), watching.close()])
          throw new CliError(`build failed: ${error.message}`)
        })
      : async () => {}
  // Ready means every edit made since the load is served: the watcher has caught up (reconcile).
  await watching.ready
  // The load's garbage collected once, before the line that says the server is ready: the heap held near live now.
  collectNow()
  const records = KINDS.map((kind) => `${store.list(kind).length} ${kind}`)
  console.log(
    `Almanac is serving ${config.content} (${records.join(', ')}), ready in ${Math.round(performance.now() - started)} ms`,
  )
  console.log(`  ➜ API: ${siteOf(config, listener.port).url}${config.api_root}/${NAMESPACE}`)
  // With a public address (site_url) the line above is where clients reach it, not where it listens.
  if (config.site_url) console.log(`  ➜ Listening: ${siteOf({ ...config, site_url: '' }, listener.port).url}`)
  console.log(`  ➜ ${configNote(file)}`)
  // Left out of the start (only writes use it), and loaded now, so the first write does not wait for it.
  setImmediate(loadSanitizer)
  // Open-ended series are served up to a horizon that moves once a month (docs/recurrence.md).
  const horizon = setInterval(() => void store.moveHorizon(), HORIZON_CHECK_MS)
  // A commit changes no file the watcher sees, but feeds count commits (docs/feeds.md §3): git is asked each minute.
  const commits = setInterval(() => void store.askGit(true), GIT_CHECK_MS)
  await new Promise<void>((resolve) => {
    const stop = () => {
      clearInterval(horizon)
      clearInterval(commits)
      void Promise.all([listener.close(), watching.close(), stopBuilding()]).then(() => resolve())
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  return 0
}

/** How often a server looks whether the horizon of open-ended series moved. */
const HORIZON_CHECK_MS = 3_600_000
/** How often a server asks git for new commits of the content (one `git log` run). */
const GIT_CHECK_MS = 60_000

/** `serve --build`: a full static build now, then updates of only what each change touches. */
async function keepBuilt(store: Store, config: Config, port: number): Promise<() => Promise<void>> {
  const builder = createSiteBuilder({
    store,
    site: siteOf(config, port),
    out: config.out,
    publicUrl: config.base_url || config.site_url || siteOf(config, port).url,
    perPage: config.per_page,
    maxPerPage: config.max_per_page,
    ...switchOptions(config),
  })
  const result = await builder.full()
  console.log(summary(result, config.out))
  const told = switchOptions(config)
  for (const note of [
    scopedFeedsLeftOut(result, told.feeds),
    slugPagesLeftOut(result, told.slugPages),
    overHostLimit(result),
  ])
    if (note) console.error(note)
  return rebuildOnChange(
    store,
    builder,
    (result) => console.log(summary(result, config.out)),
    (error) => console.error(`almanac: build failed: ${error.message}`),
  )
}

/**
 * Last resort: an error thrown outside any request (a library's event listener) is logged and the
 * server keeps answering. Requests' own errors never get here (they answer 500), and every write
 * reaches the disk atomically, so what is served stays whole. Output whose reader went away (`serve
 * | head`, a log pipe that died) is dropped: logging that failure would fail again, for ever.
 */
function keepServingThroughStrayErrors(): void {
  const report = (error: unknown) => {
    if (isBrokenPipe(error)) return
    console.error(`almanac: unexpected error, still serving: ${(error as Error)?.stack ?? String(error)}`)
  }
  process.on('uncaughtException', report)
  process.on('unhandledRejection', report)
}
