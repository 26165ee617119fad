import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { type HistoryKey, readHistoryKey, toHistoryKey } from './git-head.ts'
import { LOG_ARGS, readLog, SAFE } from './git-log.ts'

/** How long a history key whose log failed is left before it is tried again. */
const RETRY_FAILED_MS = 60_000

/** A git run that takes longer, or says more, is given up: the files are then dated by their mtime. */
const GIT_TIMEOUT_MS = 15_000
const GIT_MAX_OUTPUT = 64 * 1024 * 1024

/**
 * When each file of a content folder was committed, for records written without `date`: the author
 * date of the commit that added the file (renames followed), which is the same on every clone of
 * the same commit, where a file's mtime is the moment of the clone.
 */
export interface CommitDates {
  /** The instant (ms) the file (relative to the content folder) was added, if git knows it. */
  get(path: string): number | undefined
  /** The instant (ms) of the last commit that added, changed or renamed the file, if git knows it. */
  changed(path: string): number | undefined
  /**
   * Asks git again: one run for the whole folder, one run at a time (a run finishing after a later one would put
   * back an older history). Never throws; without git the map stays empty, and a run that fails keeps what the last
   * one found (and is tried again once HEAD moves, or a minute later). The paths whose last change (`changed`)
   * moved, appeared or went, none while `changed` has never been asked (nothing served can show a date no one has
   * read); and those whose date added (`get`) moved since the last run that read the history (an amend or a rebase
   * of the commit that added them).
   */
  refresh(): Promise<string[]>
  /** Whether the last run found the folder in a git repository. */
  readonly inRepository: boolean
}

export function createCommitDates(dir: string): CommitDates {
  let dates = new Map<string, number>()
  let changes = new Map<string, number>()
  let inRepository = false
  /** Whether `changed` was ever asked: until then, no answer shows a commit date. */
  let read = false
  /** The history key (`git-head.ts`) when the log was last read. */
  let logged: string | undefined
  /** Whether a run has read the history: until then, `dates` is no history's. */
  let parsed = false
  /** The key at which the log last failed, and when. */
  let failed: { key: string; at: number } | undefined
  let running: Promise<unknown> = Promise.resolve()
  const refresh = async (): Promise<string[]> => {
    // HEAD, and where a shallow clone's history is cut (a fetch that deepens it keeps HEAD): the log depends on
    // nothing else (replacements are not read), so while both are as they were at the last log (an edit not
    // yet committed), it is not run again. At 42,000 files the log was ~35 ms of git and 1.6 MB to read twice,
    // at every change of the store; this run is ~3 ms.
    const head = await historyKey(dir)
    if (head === null) {
      inRepository = false
      logged = undefined
      dates = new Map()
      return []
    }
    if (head.key === logged) return []
    // A log that failed (git refusing the repository: another owner, a bare one found implicitly) is tried again
    // only once HEAD moves or a minute has passed: not at every change of the store.
    if (head.key === failed?.key && Date.now() - failed.at < RETRY_FAILED_MS) return []
    const log = await git(dir, LOG_ARGS)
    const after = log === null ? null : await readLog(log, head.shallow)
    failed = after === null ? { key: head.key, at: Date.now() } : undefined
    if (after === null) return []
    inRepository = true
    logged = head.key
    const added = dates
    dates = after.added
    const before = changes
    changes = after.changed
    const moved = new Set(read ? movedPaths(before, changes) : [])
    if (parsed) for (const path of movedPaths(added, dates)) moved.add(path)
    parsed = true
    return [...moved]
  }
  return {
    get: (path) => dates.get(path),
    changed: (path) => {
      read = true
      return changes.get(path)
    },
    get inRepository() {
      return inRepository
    },
    refresh() {
      const next = running.then(refresh)
      running = next.catch(() => {})
      return next
    },
  }
}

/**
 * What the log depends on, read from the repository's files; from `git rev-parse` where their layout is not read
 * there. Null outside a repository: no `.git` in or above the folder and no `GIT_DIR`, where git is not started at
 * all (a child process cost the static build's gigabyte-sized process 25–35 ms of its own thread, and the feeds ask
 * at every change), or where
 * git cannot say.
 */
async function historyKey(dir: string): Promise<HistoryKey | null> {
  const read = await readHistoryKey(dir)
  if (read !== undefined) return read
  const said = await git(dir, [...SAFE, 'rev-parse', '--is-shallow-repository', '--git-path', 'shallow', 'HEAD'])
  if (said === null) return null
  const [shallow, cutPath = '', head = ''] = said.split('\n')
  const cut = shallow === 'true' ? await readFile(resolve(dir, cutPath), 'utf8').catch(() => '') : null
  return toHistoryKey(head, cut)
}

/** Runs git in `dir` without a shell; null when git is missing, the folder is no repository, or it fails. */
function git(dir: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    const env = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }
    execFile(
      'git',
      args,
      { cwd: dir, env, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_OUTPUT, windowsHide: true },
      (error, stdout) => {
        resolve(error ? null : stdout)
      },
    )
  })
}

/** The paths whose date differs between two maps, or is in one only. */
function movedPaths(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): string[] {
  // Plain loops: at 48,000 paths, a spread of the entries into pairs cost a commit ~50 ms of the event loop.
  const moved: string[] = []
  for (const [path, at] of after) if (before.get(path) !== at) moved.push(path)
  for (const path of before.keys()) if (!after.has(path)) moved.push(path)
  return moved
}
