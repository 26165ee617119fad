// `npm run bench:hostile` (issue 10): how long single hostile requests hold the event loop,
// in-process over a generated tree (BENCH_EVENTS, default 10,000). Each case reports the longest
// stretch the event loop was blocked while the request ran (a 1 ms ticker's longest gap) and the
// request's own time. No single request may block the loop more than 50 ms.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../../src/app.ts'
import { openUsers } from '../../../src/auth/users.ts'
import { createStore } from '../../../src/content/store.ts'
import { generateContent } from '../common/content.ts'
import { envNumber } from '../common/load.ts'

const API = 'http://127.0.0.1:8089/wp-json/calendar/events/v1'
const words = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => ['music', 'night', 'market', 'jazz', 'festival'][i % 5] + (i % 7 === 0 ? '' : String(i)),
  ).join(' ')
const event = (description: string) => ({
  title: 'Hostile',
  start_date: '2027-01-10 10:00:00',
  end_date: '2027-01-10 12:00:00',
  description,
})
const paragraphs = (bytes: number) =>
  Array.from({ length: Math.ceil(bytes / 400) }, (_, i) =>
    `Paragraph ${i} with *some* _emphasis_, a [link](https://example.org/${i}) and \`code\`. `.repeat(4),
  ).join('\n\n')

const CASES: [string, string, RequestInit?, string?][] = [
  ['GET search= of 2,000 words', `${API}/events?search=${encodeURIComponent(words(2000))}`],
  ['GET search= of one letter', `${API}/events?search=a`],
  [
    'GET search= of 20 common words',
    `${API}/events?search=${encodeURIComponent('music night market jazz garden concert '.repeat(4).trim().split(' ').slice(0, 20).join(' '))}`,
  ],
  ['GET search= of 20 words', `${API}/events?search=${encodeURIComponent(words(20))}`],
  ['GET venues?search= of 2,000 words', `${API}/venues?search=${encodeURIComponent(words(2000))}`],
  ['GET a path of 100,000 slashes then x', `${API}/events/${'/'.repeat(100_000)}x`],
  [
    'POST description of 240 KB of < (contributor)',
    `${API}/events`,
    { method: 'POST', body: JSON.stringify(event('<'.repeat(240_000))) },
    'contributor',
  ],
  [
    'POST description of _a x 60,000 (contributor)',
    `${API}/events`,
    { method: 'POST', body: JSON.stringify(event('_a'.repeat(60_000))) },
    'contributor',
  ],
  [
    'POST description of 16 KB of list items (contributor)',
    `${API}/events`,
    { method: 'POST', body: JSON.stringify(event('- a\n'.repeat(4000))) },
    'contributor',
  ],
  [
    'POST description of 16 KB of list items (admin)',
    `${API}/events`,
    { method: 'POST', body: JSON.stringify(event('- b\n'.repeat(4000))) },
    'admin',
  ],
  [
    'POST description of 2,000 nested > (contributor)',
    `${API}/events`,
    { method: 'POST', body: JSON.stringify(event('>'.repeat(2000))) },
    'contributor',
  ],
  [
    'POST description of 900 KB of spaces then x (admin)',
    `${API}/events`,
    { method: 'POST', body: JSON.stringify(event(`${' '.repeat(900_000)}x`)) },
    'admin',
  ],
  [
    'POST description of 900 KB of Markdown (admin)',
    `${API}/events`,
    { method: 'POST', body: JSON.stringify(event(paragraphs(900_000))) },
    'admin',
  ],
  ['GET the events list after those writes', `${API}/events?start_date=2027-01-10&end_date=2027-01-11`],
]

/** The longest gap between ticks of a 1 ms timer while `work` runs: how long the loop was held. */
async function blocked<T>(work: () => Promise<T>): Promise<{ blockedMs: number; totalMs: number; result: T }> {
  let last = performance.now()
  let longest = 0
  const ticker = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 1)
  const started = performance.now()
  const result = await work()
  const totalMs = performance.now() - started
  longest = Math.max(longest, performance.now() - last)
  clearInterval(ticker)
  return { blockedMs: longest, totalMs, result }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-hostile-'))
  try {
    await generateContent(join(dir, 'content'), envNumber('BENCH_EVENTS', 10_000))
    const users = openUsers(join(dir, 'users.yaml'))
    const passwords = {
      admin: users.add('admin', 'administrator').password,
      contributor: users.add('contributor', 'contributor').password,
    }
    const store = await createStore(join(dir, 'content'), {
      defaultLanguage: 'en',
      fallback: true,
      onProblem: () => {},
    })
    const app = createApp({
      store,
      site: {
        url: 'http://127.0.0.1:8089',
        host: '127.0.0.1',
        apiRoot: '/wp-json',
        timezone: 'UTC',
        defaultLang: 'en',
        currency: 'USD',
        currencySymbol: '$',
        currencyPosition: 'prefix',
      },
      perPage: 9,
      maxPerPage: 50,
      fallback: true,
      users,
      log: () => {},
    })
    await app.fetch(new Request(`${API}/events?search=warm`)).then((r) => r.text())
    for (const [name, url, init, login] of CASES) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' }
      if (login)
        headers.Authorization = `Basic ${Buffer.from(`${login}:${passwords[login as keyof typeof passwords]}`).toString('base64')}`
      const { blockedMs, totalMs, result } = await blocked(async () => {
        const response = await app.fetch(new Request(url, { ...init, headers }))
        return `${response.status} ${(await response.text()).length} B`
      })
      console.log(
        `${name.padEnd(52)} blocked ${blockedMs.toFixed(0).padStart(6)} ms, took ${totalMs.toFixed(0).padStart(6)} ms (${result})`,
      )
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
