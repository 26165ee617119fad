import yaml from 'js-yaml'
import { createApp } from '../../src/app.ts'
import { createStore, type Problem } from '../../src/content/store.ts'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'
import { call, SAMPLE_NOW, testSite, type TestAppOptions } from '../helpers.ts'

// Series trees for the served-side tests: content files in the memory driver, the app over them with
// a pinned clock (SAMPLE_NOW unless given), every problem collected.

/** A content file's text: YAML front matter from `data`, then the body. */
export function file(data: Record<string, unknown>, body = ''): string {
  return `---\n${yaml.dump(data, { lineWidth: -1 })}---\n${body}\n`
}

/** The app over `files` (path → text) in a memory driver, with the driver and the store. */
export async function seriesApp(
  files: Record<string, string>,
  options: TestAppOptions & { clock?: () => number } = {},
) {
  const problems: Problem[] = []
  const driver = createMemoryDriver(files)
  const clock = options.clock ?? (() => options.now ?? SAMPLE_NOW)
  const store = await createStore(driver, {
    defaultLanguage: 'en',
    fallback: true,
    onProblem: (problem) => problems.push(problem),
    timezone: options.timezone ?? 'UTC',
    now: clock,
  })
  const app = createApp({
    store,
    site: testSite(options),
    perPage: options.perPage ?? 9,
    maxPerPage: options.maxPerPage ?? 50,
    fallback: true,
    now: clock,
    log: () => {},
  })
  return Object.assign(app, { problems, store, driver })
}

/** Every event a list answers, following its pages (per_page as asked) to the end; checks X-TEC-Total. */
export async function allPages(app: Parameters<typeof call>[0], query: string, perPage: number) {
  const events: any[] = []
  let total = -1
  for (let page = 1; page < 1000; page++) {
    const response = await call(app, `events?${query}&per_page=${perPage}&page=${page}`)
    if (response.status === 404 && page > 1) break
    if (response.status !== 200) throw new Error(`${query} page ${page}: ${response.status} ${response.text}`)
    total = Number(response.headers.get('x-tec-total'))
    events.push(...response.body.events)
    if (page >= Number(response.headers.get('x-tec-totalpages'))) break
  }
  if (total !== -1 && total !== events.length) throw new Error(`X-TEC-Total ${total}, ${events.length} listed`)
  return events
}
