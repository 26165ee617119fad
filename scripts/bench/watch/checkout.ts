// Issue 5, git checkout: a content repository switches branch and many event files change at once.
// Timed from just before `git checkout` until the API serves every changed event's new title.
import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { describe, get, sleep } from '../common/client.ts'
import type { Settled } from '../common/idle.ts'
import type { KnownEvent, Server } from '../common/server.ts'
import { sourceFile, titleIn, waitForTitles, withTitle } from './live.ts'

/** One checkout: git's own share, when the sentinels showed it, and when every changed event did. */
export interface CheckoutRun {
  branch: string
  /** `git checkout` itself, part of both times below. */
  gitMs: number
  /** Until the first, middle and last changed file (git's write order) all served their new title; null: not in time. */
  sentinelsMs: number | null
  /** Until every changed event served its new title; null when some had not within the time limit. */
  appliedMs: number | null
  /** Events still served with the old title once the sentinels showed the new ones. */
  lateAfterSentinels: number
  /** Events still old when the wait gave up (0 when applied). */
  stillOld: number
  /** How long the server kept busy after everything was served, before the next step. */
  settledMs: number
}

/** The checkout there (`bench-edits`) and back (`main`), with the untimed git set-up. */
export interface CheckoutResult {
  files: number
  /** git init, add and commit of the whole tree, and the branch's commit: not part of any time. */
  setupMs: number
  pollMs: number
  timeoutMs: number
  forward: CheckoutRun
  back: CheckoutRun
}

type Titles = ReadonlyMap<number, string>

const POLL_MS = 20
const TIMEOUT_MS = 60_000
const PAGE = 50 // the server's max_per_page
const BRANCH = 'bench-edits'

/** Commits the tree as it is now, makes a branch where `events` have new titles, then checks it out and back. */
export async function measureCheckout(
  server: Server,
  events: KnownEvent[],
  settle: () => Promise<Settled>,
): Promise<CheckoutResult> {
  // Path order is the order git writes files in, so the first and last here are the first and last written.
  const path = (e: KnownEvent) => `events/${e.stem}.en.md`
  const sorted = [...events].sort((a, b) => (path(a) < path(b) ? -1 : path(a) > path(b) ? 1 : 0))
  const ids = sorted.map((e) => e.id)
  const started = performance.now()
  const texts = await Promise.all(sorted.map((e) => readFile(sourceFile(server, e), 'utf8')))
  const old: Titles = new Map(sorted.map((e, i) => [e.id, titleIn(texts[i]!)]))
  const fresh: Titles = new Map(sorted.map((e) => [e.id, `Checkout edit ${e.id}`]))
  git(server.dir, ['init', '-q', '-b', 'main'])
  git(server.dir, ['add', '-A'])
  git(server.dir, ['commit', '-q', '-m', 'base'])
  commitBranch(
    server.dir,
    sorted.map((e, i) => ({ path: path(e), text: withTitle(texts[i]!, fresh.get(e.id)!) })),
  )
  // A working copy in use has a refreshed index: git's own time should be the checkout, not a first refresh.
  git(server.dir, ['update-index', '-q', '--refresh'])
  const setupMs = performance.now() - started
  // The branch was built without touching the working tree, so the server has nothing to catch up on; checked anyway.
  await settle()
  const notOld = await staleIds(server, ids, old)
  if (notOld.length > 0)
    throw new Error(
      `${notOld.length} events do not serve their committed title before the checkout (e.g. ${notOld[0]})`,
    )
  const sentinels = [ids[0]!, ids[Math.floor(ids.length / 2)]!, ids[ids.length - 1]!]
  const forward = await timeCheckout(server, BRANCH, ids, sentinels, fresh, settle)
  const back = await timeCheckout(server, 'main', ids, sentinels, old, settle)
  return { files: ids.length, setupMs, pollMs: POLL_MS, timeoutMs: TIMEOUT_MS, forward, back }
}

/**
 * Checks out `branch`, polls the sentinels, then verifies every id (untimed) and polls any still late; a
 * server too slow for TIMEOUT_MS is a result to report, not a failure. Then waits for it to go quiet.
 */
async function timeCheckout(
  server: Server,
  branch: string,
  ids: number[],
  sentinels: number[],
  titles: Titles,
  settle: () => Promise<Settled>,
): Promise<CheckoutRun> {
  const t0 = performance.now()
  git(server.dir, ['checkout', '-q', branch])
  const gitMs = performance.now() - t0
  const sentinelsAt = await waitForTitles(server, sentinels, (id) => titles.get(id)!, t0, TIMEOUT_MS, POLL_MS)
  let late = await staleIds(server, ids, titles)
  const lateAfterSentinels = late.length
  let appliedAt = sentinelsAt
  // Only when some were late is the verification itself inside the time: then it is part of the wait.
  while (late.length > 0 && performance.now() - t0 < TIMEOUT_MS) {
    await sleep(POLL_MS)
    late = await staleIds(server, late, titles)
    appliedAt = performance.now()
  }
  const since = (at: number | null) => (at === null ? null : at - t0)
  return {
    branch,
    gitMs,
    sentinelsMs: since(sentinelsAt),
    appliedMs: late.length > 0 ? null : since(appliedAt ?? performance.now()),
    lateAfterSentinels,
    stillOld: late.length,
    settledMs: (await settle()).ms,
  }
}

/** Ids whose event is not served with `titles.get(id)`: asked 50 at a time with `?include=`. */
async function staleIds(server: Server, ids: number[], titles: Titles): Promise<number[]> {
  const stale: number[] = []
  for (let i = 0; i < ids.length; i += PAGE) {
    const chunk = ids.slice(i, i + PAGE)
    const answer = await get(`${server.base}/events?include=${chunk.join(',')}&per_page=${PAGE}`)
    if (answer.status !== 200) throw new Error(`GET /events?include=…: ${describe(answer)}`)
    const served = new Map(
      (JSON.parse(answer.body.toString('utf8')) as { events: { id: number; title: string }[] }).events.map((e) => [
        e.id,
        e.title,
      ]),
    )
    // An event missing from the answer (mid-reload) is as late as one with its old title.
    for (const id of chunk) if (served.get(id) !== titles.get(id)) stale.push(id)
  }
  return stale
}

/** A commit on BRANCH, child of HEAD, with `files` replaced: written by fast-import, so the working tree is untouched. */
function commitBranch(dir: string, files: { path: string; text: string }[]): void {
  const head = git(dir, ['rev-parse', 'HEAD']).trim()
  const data = (text: string | Buffer) => [`data ${Buffer.byteLength(text)}\n`, text, '\n']
  const stream = [
    `commit refs/heads/${BRANCH}\n`,
    'committer b <b@e> 1700000000 +0000\n',
    ...data('bench edits'),
    `from ${head}\n`,
    ...files.flatMap((file) => [`M 100644 inline ${file.path}\n`, ...data(Buffer.from(file.text, 'utf8'))]),
  ]
  git(
    dir,
    ['fast-import', '--quiet'],
    Buffer.concat(stream.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part))),
  )
}

/** git with a fixed identity and none of the user's or system config (hooks, signing, templates, fsmonitor). */
function git(dir: string, args: string[], input?: Buffer): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')))
  Object.assign(env, { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' })
  const config = [
    'user.email=b@e',
    'user.name=b',
    'commit.gpgsign=false',
    'core.autocrlf=false',
    'core.fsmonitor=false',
  ]
  return execFileSync('git', [...config.flatMap((c) => ['-c', c]), ...args], {
    cwd: dir,
    env,
    input,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  })
}
