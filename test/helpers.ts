import { resolve } from 'node:path'
import { createApp, type App } from '../src/app.ts'
import { createStore, type Problem } from '../src/content/store.ts'
import type { Lang } from '../src/languages.ts'
import type { Site } from '../src/serialize/context.ts'

/** The instant the reference samples were captured: 2026-11-22 02:08:30 UTC. */
export const SAMPLE_NOW = Date.parse('2026-11-22T02:08:30Z')

export const FIXTURES = resolve(import.meta.dirname, 'fixtures')

export interface TestAppOptions {
  timezone?: string
  defaultLang?: Lang
  fallback?: boolean
  now?: number
  perPage?: number
}

/** A site like the reference instance's: http://127.0.0.1:8089, UTC. */
export function testSite(options: TestAppOptions = {}): Site {
  return {
    url: 'http://127.0.0.1:8089',
    host: '127.0.0.1',
    apiRoot: '/wp-json',
    timezone: options.timezone ?? 'UTC',
    defaultLang: options.defaultLang ?? 'en',
    currency: 'USD',
    currencySymbol: '$',
    currencyPosition: 'prefix',
  }
}

/** Loads a fixture tree and builds the app over it, in-process. */
export async function fixtureApp(name: string, options: TestAppOptions = {}): Promise<App & { problems: Problem[] }> {
  const problems: Problem[] = []
  const store = await createStore(resolve(FIXTURES, name, 'content'), {
    defaultLanguage: options.defaultLang ?? 'en',
    fallback: options.fallback ?? true,
    onProblem: (problem) => problems.push(problem),
  })
  const app = createApp({
    store,
    site: testSite(options),
    perPage: options.perPage ?? 9,
    maxPerPage: 50,
    fallback: options.fallback ?? true,
    now: () => options.now ?? SAMPLE_NOW,
    log: () => {},
  })
  return Object.assign(app, { problems })
}

/** Sends a request to the app in-process; `path` is relative to the namespace unless it starts with `/`. */
export async function call(app: App, path: string, init: RequestInit = {}) {
  const url = path.startsWith('/') ? `http://127.0.0.1:8089${path}` : `http://127.0.0.1:8089/wp-json/calendar/events/v1/${path}`
  const response = await app.fetch(new Request(url, init))
  const text = await response.text()
  const json = response.headers.get('content-type')?.startsWith('application/json') && text !== ''
  return { status: response.status, headers: response.headers, text, body: json ? (JSON.parse(text) as any) : null }
}
