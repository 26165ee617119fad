import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { readHistoryKey, toHistoryKey } from '../../src/content/store/git-head.ts'

// The history key is read from the repository's files instead of `git rev-parse` (src/content/store/git-head.ts). A
// wrong key would hide a commit from the feeds for good, so every layout is checked against git's own answer.
// FC_SEED=<n> replays the property; FC_RUNS sets its number of runs.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 20)

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const scratch = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `almanac-${name}-`))
  made.push(dir)
  return dir
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined },
  })
/** What git says HEAD is, or null (an unborn branch). */
const revParse = (cwd: string) => {
  try {
    return git(cwd, 'rev-parse', '--verify', '-q', 'HEAD').trim()
  } catch {
    return null
  }
}
const commit = (dir: string, file: string) => {
  writeFileSync(join(dir, file), `${file} ${Math.random()}`)
  git(dir, 'add', file)
  git(dir, 'commit', '-q', '-m', file)
}
/** The key's commit, or what it says instead of one. */
const headOf = async (dir: string) => {
  const read = await readHistoryKey(dir)
  return read ? read.key.split('\n')[0] : read
}
const newRepo = () => {
  const repo = scratch('head')
  git(repo, 'init', '-q')
  mkdirSync(join(repo, 'content'))
  commit(repo, 'content/a.md')
  return repo
}

describe("reading HEAD from the repository's files", () => {
  it('follows a branch through its loose file, then through packed-refs, and a detached HEAD', async () => {
    const repo = newRepo()
    const content = join(repo, 'content')
    expect(await headOf(content)).toBe(revParse(repo))
    git(repo, 'pack-refs', '--all')
    commit(repo, 'content/b.md')
    git(repo, 'pack-refs', '--all')
    expect(await headOf(content)).toBe(revParse(repo))
    git(repo, 'checkout', '-q', '--detach', 'HEAD~1')
    expect(await headOf(content)).toBe(revParse(repo))
  })

  it('reads a linked worktree, a separate git folder and GIT_DIR with a work tree set in its config', async () => {
    const repo = newRepo()
    const linked = join(scratch('linked'), 'tree')
    git(repo, 'worktree', 'add', '-q', '-b', 'side', linked)
    commit(linked, 'content/side.md')
    expect(await headOf(join(linked, 'content'))).toBe(revParse(linked))
    expect(await headOf(join(repo, 'content'))).toBe(revParse(repo))
    expect(revParse(linked)).not.toBe(revParse(repo))

    const separate = scratch('separate')
    const store = join(scratch('store'), 'repo.git')
    git(separate, 'init', '-q', '--separate-git-dir', store)
    commit(separate, 'x.md')
    expect(await headOf(separate)).toBe(revParse(separate))

    // The bench's layout: the tree has no .git, GIT_DIR names a repository kept elsewhere.
    const outside = scratch('outside')
    const before = process.env.GIT_DIR
    process.env.GIT_DIR = store
    try {
      expect(await headOf(outside)).toBe(revParse(separate))
    } finally {
      if (before === undefined) delete process.env.GIT_DIR
      else process.env.GIT_DIR = before
    }
  })

  it('reads the repository a linked content folder lives in, as git started there does', async () => {
    const app = newRepo()
    const site = newRepo()
    commit(site, 'content/b.md')
    rmSync(join(app, 'content'), { recursive: true })
    symlinkSync(join(site, 'content'), join(app, 'content'))
    expect(revParse(join(app, 'content'))).toBe(revParse(site))
    expect(await headOf(join(app, 'content'))).toBe(revParse(site))
    // A relative GIT_DIR is read from where git runs: the link's target, whose `..` is the site's folder.
    const before = process.env.GIT_DIR
    process.env.GIT_DIR = '../.git'
    try {
      expect(await headOf(join(app, 'content'))).toBe(revParse(site))
    } finally {
      if (before === undefined) delete process.env.GIT_DIR
      else process.env.GIT_DIR = before
    }
  })

  it('follows no more symbolic refs than git does, and tells a complete clone from one cut with nothing listed', async () => {
    const repo = newRepo()
    const head = revParse(repo)
    for (const depth of [4, 5]) {
      const names = Array.from({ length: depth }, (_, i) => `refs/heads/r${depth}-${i}`)
      git(repo, 'update-ref', names[depth - 1]!, head!)
      for (let i = depth - 2; i >= 0; i--) git(repo, 'symbolic-ref', names[i]!, names[i + 1]!)
      git(repo, 'symbolic-ref', 'HEAD', names[0]!)
      // git reads HEAD and four symbolic refs after it; a fifth is too deep for it and for the reading.
      expect(await headOf(repo)).toBe(depth === 4 ? head : undefined)
      expect(revParse(repo)).toBe(depth === 4 ? head : null)
    }
    expect(toHistoryKey('abc', '').key).not.toBe(toHistoryKey('abc', null).key)
  })

  it("keys a shallow clone by where it is cut, and says what it does not read (git's answer is asked for)", async () => {
    const repo = newRepo()
    commit(repo, 'content/b.md')
    const clone = join(scratch('clone'), 'c')
    git(tmpdir(), 'clone', '-q', '--depth', '1', `file://${repo}`, clone)
    const shallow = await readHistoryKey(clone)
    expect(shallow?.shallow).toBe(true)
    git(clone, 'fetch', '-q', '--deepen=1')
    const deeper = await readHistoryKey(clone)
    expect(deeper?.key.split('\n')[0]).toBe(shallow?.key.split('\n')[0])
    expect(deeper?.key).not.toBe(shallow?.key)
    expect((await readHistoryKey(repo))?.shallow).toBe(false)

    git(repo, 'checkout', '-q', '--orphan', 'unborn')
    expect(await readHistoryKey(repo)).toBeUndefined()
    // A HEAD naming a path out of refs/ is not followed.
    writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/../../config\n')
    expect(await readHistoryKey(repo)).toBeUndefined()
    writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n')
    mkdirSync(join(repo, '.git', 'reftable'))
    expect(await readHistoryKey(repo)).toBeUndefined()
    expect(await readHistoryKey(scratch('no-repo'))).toBeNull()
  })
})

type Step =
  | { kind: 'commit' }
  | { kind: 'branch'; name: number }
  | { kind: 'switch'; name: number }
  | { kind: 'detach'; back: number }
  | { kind: 'pack' }
  | { kind: 'gc' }
  | { kind: 'symbolic'; name: number }
  | { kind: 'in-worktree' }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'commit' }),
  fc.integer({ min: 0, max: 2 }).map((name): Step => ({ kind: 'branch', name })),
  fc.integer({ min: 0, max: 2 }).map((name): Step => ({ kind: 'switch', name })),
  fc.integer({ min: 0, max: 2 }).map((back): Step => ({ kind: 'detach', back })),
  fc.constant<Step>({ kind: 'pack' }),
  fc.constant<Step>({ kind: 'gc' }),
  fc.integer({ min: 0, max: 2 }).map((name): Step => ({ kind: 'symbolic', name })),
  fc.constant<Step>({ kind: 'in-worktree' }),
)

/** Carries out a step; git refusing one (a branch that exists, a commit with no parent that far back) is a no-op. */
function apply(repo: string, worktree: string, at: Step, count: number) {
  const tryGit = (cwd: string, ...args: string[]) => {
    try {
      git(cwd, ...args)
    } catch {}
  }
  if (at.kind === 'commit') commit(repo, `content/f${count}.md`)
  else if (at.kind === 'branch') tryGit(repo, 'checkout', '-q', '-b', `b${at.name}`)
  else if (at.kind === 'switch') tryGit(repo, 'checkout', '-q', `b${at.name}`)
  else if (at.kind === 'detach') tryGit(repo, 'checkout', '-q', '--detach', `HEAD~${at.back}`)
  else if (at.kind === 'pack') git(repo, 'pack-refs', '--all')
  else if (at.kind === 'gc') git(repo, 'gc', '-q', '--prune=now')
  else if (at.kind === 'symbolic') git(repo, 'symbolic-ref', 'HEAD', `refs/heads/b${at.name}`)
  else commit(worktree, `content/w${count}.md`)
}

describe('HEAD read from files is what git says, over random histories', () => {
  it('agrees with git rev-parse in the repository and its linked worktree after every step', async () => {
    let steps = 0
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 8 }), async (plan) => {
        const repo = newRepo()
        const worktree = join(scratch('wt'), 'tree')
        git(repo, 'worktree', 'add', '-q', '-b', 'wt', worktree)
        for (const [count, at] of plan.entries()) {
          apply(repo, worktree, at, count)
          steps++
          for (const dir of [repo, worktree]) {
            const said = revParse(dir)
            const read = await headOf(join(dir, 'content'))
            // Only an unborn branch (a symbolic HEAD to a branch not made yet) is left to git.
            expect(read, `seed ${SEED}, ${JSON.stringify(plan.slice(0, count + 1))} in ${dir}`).toBe(said ?? undefined)
          }
        }
        for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    console.log(`git-head property (seed ${SEED}): ${RUNS} runs, ${steps} steps`)
  }, 120_000)
})
