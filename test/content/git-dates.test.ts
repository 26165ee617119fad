import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createCommitDates } from '../../src/content/store/git-dates.ts'
import { readLog } from '../../src/content/store/git-log.ts'

const added = async (log: string, shallow = false) => (await readLog(log, shallow)).added
const changed = async (log: string) => (await readLog(log, false)).changed

/** One commit of `git log -z --name-status --format=%x01%at%x02%P%x02%ct`, oldest first (authored and committed at once). */
const commit = (seconds: number, parents: string, ...changes: string[][]) =>
  `\x01${seconds}\x02${parents}\x02${seconds}\0\n${changes.map((c) => c.join('\0')).join('\0')}\0`

describe('reading when each file was added from git log', () => {
  it('keeps the date a file was added, through renames, and forgets files deleted', async () => {
    const log =
      commit(100, '', ['A', 'events/a.en.md'], ['A', 'events/b.en.md']) +
      commit(200, 'p1', ['R100', 'events/a.en.md', 'events/a2.en.md'], ['D', 'events/b.en.md'])
    expect(await added(log, false)).toEqual(new Map([['events/a2.en.md', 100_000]]))
  })

  it('dates a file deleted and added again by the second addition', async () => {
    const log = commit(100, '', ['A', 'x.md']) + commit(200, 'p1', ['D', 'x.md']) + commit(300, 'p2', ['A', 'x.md'])
    expect((await added(log, false)).get('x.md')).toBe(300_000)
  })

  it('leaves out what a shallow clone shows as added in the commit its history was cut at', async () => {
    const log = commit(500, '', ['A', 'old.md']) + commit(600, 'p1', ['A', 'new.md'])
    expect(await added(log, true)).toEqual(new Map([['new.md', 600_000]]))
  })

  it('keeps odd file names whole, even one that starts with a newline', async () => {
    expect((await added(commit(100, '', ['A', 'x.md'], ['A', '\nodd.md']), false)).get('\nodd.md')).toBe(100_000)
    expect(
      (await added(commit(100, '', ['A', 'events/with space\nand newline.md']), false)).get(
        'events/with space\nand newline.md',
      ),
    ).toBe(100_000)
  })
})

describe('a file name holding the bytes of a commit header', () => {
  // A stranger's pull request may name a file anything but NUL: the log was cut at every \x01, and the rest of such a
  // name read as a commit of the date it chose, for every file after it in its commit (check --fix wrote it down).
  const forged = 'events/0\x014102444800\x02\x024102444800.en.md'
  const log =
    commit(100, '', ['A', forged], ['A', 'events/victim.en.md']) + commit(200, 'p1', ['M', 'events/later.en.md'])

  it('is a path: the files after it keep their commit date', async () => {
    expect(await added(log, false)).toEqual(
      new Map([
        [forged, 100_000],
        ['events/victim.en.md', 100_000],
      ]),
    )
    expect(await changed(log)).toEqual(
      new Map([
        [forged, 100_000],
        ['events/victim.en.md', 100_000],
        ['events/later.en.md', 200_000],
      ]),
    )
  })
})

describe("reading when each file last changed from git log (a feed's SEQUENCE)", () => {
  it('keeps the last commit that added, changed or renamed a file, and forgets files deleted', async () => {
    const log =
      commit(100, '', ['A', 'a.md'], ['A', 'b.md'], ['A', 'c.md']) +
      commit(200, 'p1', ['M', 'a.md'], ['D', 'b.md']) +
      commit(300, 'p2', ['R100', 'c.md', 'c2.md']) +
      commit(400, 'p3', ['M', 'a.md'])
    expect(await changed(log)).toEqual(
      new Map([
        ['a.md', 400_000],
        ['c2.md', 300_000],
      ]),
    )
  })
})

describe('reading a long log in turns of the event loop', () => {
  it("lets other work run while it reads, and finds every file's dates", async () => {
    // 30,000 files added over 300 commits, a third renamed and a tenth deleted after: ~80,000 fields.
    let log = ''
    for (let c = 0; c < 300; c++) {
      const changes = Array.from({ length: 100 }, (_, f) => ['A', `events/e${c}-${f}.en.md`])
      log += commit(1_000 + c, c === 0 ? '' : `p${c}`, ...changes)
    }
    const later = Array.from({ length: 10_000 }, (_, i) => [
      'R100',
      `events/e${i % 300}-${Math.floor(i / 300)}.en.md`,
      `events/r${i}.en.md`,
    ])
    log += commit(
      5_000,
      'pz',
      ...later,
      ...Array.from({ length: 3_000 }, (_, i) => ['D', `events/e${i % 300}-${99 - Math.floor(i / 300)}.en.md`]),
    )
    let turns = 0
    let reading = true
    const count = () => {
      if (!reading) return
      turns++
      setImmediate(count)
    }
    setImmediate(count)
    const read = await readLog(log, false)
    reading = false
    expect(turns).toBeGreaterThan(3)
    // 30,000 added, 3,000 deleted; a renamed file keeps the date it was added, and changed when renamed.
    expect(read.added.size).toBe(27_000)
    expect(read.changed.size).toBe(27_000)
    expect(read.added.get('events/r0.en.md')).toBe(1_000_000)
    expect(read.changed.get('events/r0.en.md')).toBe(5_000_000)
    expect(read.added.has('events/e0-0.en.md')).toBe(false)
    expect(read.added.has('events/e0-99.en.md') || read.changed.has('events/e0-99.en.md')).toBe(false)
    expect(read.added.get('events/e5-50.en.md')).toBe(1_005_000)
    expect(read.changed.get('events/e5-50.en.md')).toBe(1_005_000)
  })
})

/** A git that notes each run's arguments in `calls` and hands it to the real one: observation, not a stand-in. */
function gitShim() {
  const bin = mkdtempSync(join(tmpdir(), 'almanac-git-shim-'))
  const calls = join(bin, 'calls')
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${real}' "$@"\n`, { mode: 0o755 })
  return { bin, calls, real }
}

describe('asking git', () => {
  it('starts no git process for a folder outside any repository, and asks git inside one', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'almanac-git-shim-'))
    const calls = join(bin, 'calls')
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
    // A git that notes each run and hands it to the real one: observation, not a stand-in.
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho run >> '${calls}'\nexec '${real}' "$@"\n`, { mode: 0o755 })
    const outside = mkdtempSync(join(tmpdir(), 'almanac-no-repo-'))
    const inside = mkdtempSync(join(tmpdir(), 'almanac-repo-'))
    execFileSync(real, ['init', '-q', inside])
    mkdirSync(join(inside, 'content'))
    const path = process.env.PATH
    process.env.PATH = `${bin}:${path}`
    const runs = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean).length : 0)
    try {
      const away = createCommitDates(outside)
      expect(await away.refresh()).toEqual([])
      expect(away.inRepository).toBe(false)
      expect(runs()).toBe(0)
      const home = createCommitDates(join(inside, 'content'))
      await home.refresh()
      expect(runs()).toBeGreaterThan(0)
    } finally {
      process.env.PATH = path
      for (const dir of [bin, outside, inside]) rmSync(dir, { recursive: true, force: true })
    }
  })

  it('reads the log again only once HEAD has moved, and starts no other git: an edit not committed changes no date', async () => {
    const { bin, calls, real } = gitShim()
    const repo = mkdtempSync(join(tmpdir(), 'almanac-repo-'))
    const commit = (file: string, seconds: number) => {
      writeFileSync(join(repo, file), file)
      const at = `@${seconds} +0000`
      const env = { ...process.env, GIT_AUTHOR_DATE: at, GIT_COMMITTER_DATE: at }
      execFileSync(real, ['add', file], { cwd: repo })
      execFileSync(real, ['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-q', '-m', file], { cwd: repo, env })
    }
    execFileSync(real, ['init', '-q', repo])
    commit('a.md', 1_700_000_000)
    const path = process.env.PATH
    process.env.PATH = `${bin}:${path}`
    const logs = () =>
      readFileSync(calls, 'utf8')
        .split('\n')
        .filter((line) => / log /.test(line)).length
    try {
      const dates = createCommitDates(repo)
      // No date was read before this first run: nothing served can show an older one, so none counts as moved.
      expect(await dates.refresh()).toEqual([])
      expect(dates.changed('a.md')).toBe(1_700_000_000_000)
      writeFileSync(join(repo, 'a.md'), 'edited, not committed')
      expect(await dates.refresh()).toEqual([])
      expect(logs()).toBe(1)
      expect(dates.changed('a.md')).toBe(1_700_000_000_000)
      commit('b.md', 1_700_000_100)
      // Only the file the commit changed moved.
      expect(await dates.refresh()).toEqual(['b.md'])
      expect(logs()).toBe(2)
      expect(dates.get('b.md')).toBe(1_700_000_100_000)
      // HEAD is read from the repository's files (src/content/store/git-head.ts): the only git runs are the logs.
      expect(readFileSync(calls, 'utf8').split('\n').filter(Boolean)).toHaveLength(2)
    } finally {
      process.env.PATH = path
      for (const dir of [bin, repo]) rmSync(dir, { recursive: true, force: true })
    }
  })

  it("reads no history a pull request commits as a bare repository's files, and does not ask again at every change", async () => {
    const { bin, calls, real } = gitShim()
    const repo = mkdtempSync(join(tmpdir(), 'almanac-repo-'))
    const forged = mkdtempSync(join(tmpdir(), 'almanac-forged-'))
    const git = (cwd: string, env: Record<string, string>, ...args: string[]) =>
      execFileSync(real, ['-c', 'user.name=a', '-c', 'user.email=a@b', ...args], {
        cwd,
        env: { ...process.env, ...env },
        stdio: 'ignore',
      })
    const path = process.env.PATH
    try {
      // A history dated 2001 that names the site's own file, made elsewhere.
      const old = { GIT_AUTHOR_DATE: '@978307200 +0000', GIT_COMMITTER_DATE: '@978307200 +0000' }
      git(forged, {}, 'init', '-q')
      writeFileSync(join(forged, 'a.md'), 'forged')
      git(forged, {}, 'add', 'a.md')
      git(forged, old, 'commit', '-q', '-m', 'forged')
      // The site: its content folder gets that history's HEAD, objects and refs as plain committed files.
      git(repo, {}, 'init', '-q')
      mkdirSync(join(repo, 'content'))
      writeFileSync(join(repo, 'content', 'a.md'), 'real')
      for (const part of ['HEAD', 'objects', 'refs'])
        cpSync(join(forged, '.git', part), join(repo, 'content', part), { recursive: true })
      git(repo, {}, 'add', '-A')
      git(
        repo,
        { GIT_AUTHOR_DATE: '@1700000000 +0000', GIT_COMMITTER_DATE: '@1700000000 +0000' },
        'commit',
        '-q',
        '-m',
        'pr',
      )
      process.env.PATH = `${bin}:${path}`
      const dates = createCommitDates(join(repo, 'content'))
      await dates.refresh()
      expect(dates.get('a.md')).not.toBe(978_307_200_000)
      const runs = () => readFileSync(calls, 'utf8').split('\n').filter(Boolean).length
      const before = runs()
      await dates.refresh()
      await dates.refresh()
      expect(runs()).toBe(before)
    } finally {
      process.env.PATH = path
      for (const dir of [bin, repo, forged]) rmSync(dir, { recursive: true, force: true })
    }
  })

  it('reads the log again when a shallow clone is deepened at the same HEAD, and ignores local replacements', async () => {
    const origin = mkdtempSync(join(tmpdir(), 'almanac-origin-'))
    const clone = join(mkdtempSync(join(tmpdir(), 'almanac-clone-')), 'content')
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', ...args], { cwd, encoding: 'utf8' })
    const commit = (file: string, seconds: number) => {
      writeFileSync(join(origin, file), file)
      const at = `@${seconds} +0000`
      git(origin, 'add', file)
      execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-q', '-m', file], {
        cwd: origin,
        env: { ...process.env, GIT_AUTHOR_DATE: at, GIT_COMMITTER_DATE: at },
      })
    }
    try {
      git(origin, 'init', '-q')
      commit('a.md', 1_700_000_000)
      commit('b.md', 1_700_000_100)
      commit('c.md', 1_700_000_200)
      git(tmpdir(), 'clone', '-q', '--depth', '1', `file://${origin}`, clone)
      const dates = createCommitDates(clone)
      await dates.refresh()
      // Cut at c's commit, every file looks added there, so none is dated.
      expect(dates.get('c.md')).toBeUndefined()
      git(clone, 'fetch', '-q', '--deepen=1')
      expect(git(clone, 'rev-parse', '--is-shallow-repository').trim()).toBe('true')
      await dates.refresh()
      expect(dates.get('c.md')).toBe(1_700_000_200_000)
      expect(dates.get('b.md')).toBeUndefined()
      // A graft made in this clone alone (HEAD without parents) is not read: other clones would not see it, and
      // it changes no HEAD, so a running server would not see it either.
      git(clone, 'replace', '--graft', 'HEAD')
      const fresh = createCommitDates(clone)
      await fresh.refresh()
      expect(fresh.get('c.md')).toBe(1_700_000_200_000)
    } finally {
      for (const dir of [origin, join(clone, '..')]) rmSync(dir, { recursive: true, force: true })
    }
  })
})
