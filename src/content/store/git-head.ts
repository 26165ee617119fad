import { readFile, realpath, stat } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'

/**
 * What a folder's git history depends on: the commit HEAD names and, in a shallow clone, the commits its history is
 * cut at. Two equal keys mean `git log` would say the same (local replacements aside, which are not read).
 */
export interface HistoryKey {
  key: string
  shallow: boolean
}

/** Where a repository keeps HEAD (its own folder, for a linked worktree) and where it keeps refs. */
interface GitDirs {
  own: string
  common: string
}

const OBJECT_NAME = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/
/** A branch, remote or tag ref as git writes it: no `..`, no empty or dot-led part, nothing git forbids. */
const REF_NAME = /^refs\/(?:heads|remotes|tags)\/(?!.*(?:\.\.|\/\/|\/\.|@\{|\.lock(?:\/|$)))[^\0-\x20\x7f~^:?*[\\]+$/
/** Symbolic refs read before giving up, as git does: HEAD and at most four more that name another. */
const MAX_HOPS = 5
/** Variables that change which repository or which refs git reads, in ways not followed here. */
const UNFOLLOWED_ENV = ['GIT_CEILING_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_DISCOVERY_ACROSS_FILESYSTEM']

/**
 * Reads the history key from the repository's files: HEAD, the ref it names (loose or packed) and `shallow`, a few
 * small reads. Starting `git rev-parse` for it cost the static build's process (a gigabyte resident) 25–35 ms of its
 * own thread per child, at every change of the store, where an edit takes ~150 ms.
 *
 * Null: no `.git` in or above the folder, and no `GIT_DIR`. Undefined: a layout not read here (reftable, a symbolic
 * ref outside `refs/heads`, `refs/remotes` or `refs/tags`, an unborn branch, an odd file): the caller asks git.
 */
export async function readHistoryKey(dir: string): Promise<HistoryKey | null | undefined> {
  if (UNFOLLOWED_ENV.some((name) => process.env[name])) return undefined
  const dirs = await findGitDirs(dir)
  if (dirs === null || dirs === undefined) return dirs
  if (await exists(join(dirs.common, 'reftable'))) return undefined
  const head = await resolveHead(dirs)
  if (head === undefined) return undefined
  const cut = await readFile(join(dirs.common, 'shallow'), 'utf8').catch(() => null)
  return toHistoryKey(head, cut)
}

/** The key of a commit and the text of a `shallow` file (null when there is none: an empty one is still shallow). */
export function toHistoryKey(head: string, cut: string | null): HistoryKey {
  return { key: `${head}\n${cut === null ? 'complete' : `shallow\n${cut}`}`, shallow: cut !== null }
}

/**
 * Walks up from `dir` to the first `.git`, a folder or a `gitdir:` file (a linked worktree, a submodule). From its
 * real path, as git started there does: a content folder linked into another repository belongs to that one.
 */
async function findGitDirs(dir: string): Promise<GitDirs | null | undefined> {
  const real = await realpath(dir).catch(() => null)
  if (real === null) return undefined
  // Relative to the folder git runs in, which it knows by its real path (a `..` there leaves a link's target).
  const named = process.env.GIT_DIR
  if (named) return withCommon(real, resolve(real, named))
  for (let at = real; ; at = dirname(at)) {
    const dotGit = join(at, '.git')
    const kind = await stat(dotGit).catch(() => null)
    if (kind?.isDirectory()) return withCommon(real, dotGit)
    if (kind?.isFile()) {
      const pointer = /^gitdir: (.+?)\r?\n?$/.exec(await readFile(dotGit, 'utf8').catch(() => ''))
      return pointer ? withCommon(real, resolve(at, pointer[1]!)) : undefined
    }
    if (kind) return undefined
    if (dirname(at) === at) return null
  }
}

/**
 * The folder refs are kept in: `GIT_COMMON_DIR` (relative to `dir`, the real path git runs in), the one a worktree's
 * `commondir` names, or the repository's own.
 */
async function withCommon(dir: string, own: string): Promise<GitDirs | undefined> {
  const named = process.env.GIT_COMMON_DIR
  if (named) return { own, common: resolve(dir, named) }
  const pointer = await readFile(join(own, 'commondir'), 'utf8').catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? '' : null,
  )
  if (pointer === null) return undefined
  const common = pointer.trim()
  if (common === '') return { own, common: own }
  return { own, common: isAbsolute(common) ? common : resolve(own, common) }
}

/** The commit HEAD names, following symbolic refs through loose files and `packed-refs`. */
async function resolveHead(dirs: GitDirs): Promise<string | undefined> {
  let text = await readFile(join(dirs.own, 'HEAD'), 'utf8').catch(() => '')
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const value = text.trim()
    if (OBJECT_NAME.test(value)) return value
    const ref = /^ref: (.+)$/.exec(value)?.[1]
    if (ref === undefined || !REF_NAME.test(ref)) return undefined
    const loose = await readFile(join(dirs.common, ref), 'utf8').catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? null : undefined,
    )
    if (loose === undefined) return undefined
    if (loose === null) return packedRef(dirs.common, ref)
    text = loose
  }
  return undefined
}

/** A ref's commit in `packed-refs`, if it is there. */
async function packedRef(common: string, ref: string): Promise<string | undefined> {
  const packed = await readFile(join(common, 'packed-refs'), 'utf8').catch(() => '')
  for (const line of packed.split('\n')) {
    const space = line.indexOf(' ')
    if (space > 0 && line.slice(space + 1).trimEnd() === ref) {
      const name = line.slice(0, space)
      return OBJECT_NAME.test(name) ? name : undefined
    }
  }
  return undefined
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )
