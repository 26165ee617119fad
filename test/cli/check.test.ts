import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { githubAnnotation } from '../../src/cli/check.ts'
import { checkContent } from '../../src/content/check.ts'
import { FIXTURES } from '../helpers.ts'

const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')
const run = promisify(execFile)

/** Runs the real CLI; resolves with its exit code and output whatever the code. */
async function almanac(args: string[], cwd: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, timeout: 20_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

// test/fixtures/broken: one flaw per file, each named after its flaw.
const EXPECTED: [file: string, line: number, severity: string, message: RegExp][] = [
  ['categories/parent-nowhere.en.md', 5, 'error', /^parent: 77 is not the id of a category in content\/categories$/],
  ['events/duplicate-id.en.md', 2, 'error', /^id 100 is already used/],
  ['events/duplicate-slug.en.md', 4, 'error', /^slug "good-event" \(en\) is already used/],
  [
    'events/end-before-start.en.md',
    5,
    'error',
    /^end_date: "2026-12-01 20:00:00" is before start_date "2026-12-02 19:00:00"; an event cannot end before it starts$/,
  ],
  ['events/image-missing.en.md', 6, 'error', /^image: 12345 is not in content\/media$/],
  ['events/impossible-date.en.md', 4, 'error', /^start_date: "2026-02-30 19:00:00" is not a real date and time/],
  ['events/invalid-yaml.en.md', 3, 'error', /^cannot be read: not valid YAML: a value that holds ": " must be quoted/],
  ['events/missing-id.en.md', 1, 'error', /^a source file needs an id/],
  ['events/missing-title.en.md', 1, 'error', /^title: missing; an event needs id, title, start_date and end_date$/],
  ['events/missing-translation.en.md', 1, 'warning', /^no translation in zh-hans, ta$/],
  ['events/relation-nowhere.en.md', 6, 'error', /^venue: 999 is not the id of a venue in content\/venues$/],
  ['events/translation-without-source.ms.md', 1, 'error', /no source file$/],
  ['events/unknown-language.fr.md', 1, 'error', /^unknown language "fr"/],
  [
    'events/unknown-timezone.en.md',
    6,
    'error',
    /^timezone: "Mars\/Olympus_Mons" is not an IANA time zone; use a name such as Europe\/London/,
  ],
  ['events/wrong-type.en.md', 6, 'error', /^featured: "maybe" is not true or false$/],
  [
    'tags/term-id-clash.en.md',
    2,
    'error',
    /^id 1 is already used by categories\/music; of two files the one whose path sorts first keeps an id/,
  ],
]

describe('almanac check', () => {
  it('reports every flaw of the broken fixture exactly once, on its line, and nothing else', async () => {
    const { problems } = await checkContent(join(FIXTURES, 'broken', 'content'), false)
    expect(problems).toHaveLength(EXPECTED.length)
    for (const [file, line, severity, message] of EXPECTED) {
      const found = problems.filter((p) => p.path === file)
      expect(found, file).toHaveLength(1)
      expect(found[0], file).toMatchObject({ line, severity })
      expect(found[0]!.message, file).toMatch(message)
    }
  })

  it('prints file:line: message, GitHub annotations or JSON, and exits 1 on errors', async () => {
    const cwd = join(FIXTURES, 'broken')
    const text = await almanac(['check'], cwd)
    expect(text.code).toBe(1)
    expect(text.stdout).toContain(
      'content/events/end-before-start.en.md:5: end_date: "2026-12-01 20:00:00" is before start_date "2026-12-02 19:00:00"; an event cannot end before it starts\n',
    )
    expect(text.stdout).toContain(
      'content/events/missing-translation.en.md:1: warning: no translation in zh-hans, ta\n',
    )
    expect(text.stderr).toContain('15 errors, 1 warning')
    const github = await almanac(['check', '--format', 'github'], cwd)
    expect(github.stdout).toContain(
      '::error file=content/events/unknown-timezone.en.md,line=6::timezone: "Mars/Olympus_Mons" is not an IANA time zone; use a name such as Europe/London or Asia/Kuala_Lumpur\n',
    )
    const json = await almanac(['check', '--format', 'json'], cwd)
    expect(JSON.parse(json.stdout)).toHaveLength(EXPECTED.length)
  })

  it('exits 0 on the shipped demo calendar, whose warnings do not fail', async () => {
    const result = await almanac(['check'], resolve(import.meta.dirname, '../..'))
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/^0 errors, \d+ warnings?$/m)
  })

  it('fixes only mechanical things with --fix, and says what it changed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'almanac-fix-'))
    try {
      await cp(join(FIXTURES, 'reference', 'content'), join(dir, 'content'), { recursive: true })
      await writeFile(
        join(dir, 'content/events/new-one.en.md'),
        '---\ntitle: New One\nstart_date: 2027-01-01 10:00:00\nend_date: 2027-01-01 11:00:00\n---\nHello.\n',
      )
      await writeFile(
        join(dir, 'content/tags/outdoor.en.md'),
        '---\nslug: outdoor\nname: Outdoor\nid: 3\n---\nOutside\n',
      )
      const result = await almanac(['check', '--fix'], dir)
      expect(result.code).toBe(0)
      // Outside a git repository a file without `date` is dated by its mtime, which --fix writes down.
      expect(await readFile(join(dir, 'content/events/new-one.en.md'), 'utf8')).toMatch(
        /^---\nid: 17\ntitle: New One\ndate: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\nstart_date: 2027-01-01 10:00:00\nend_date: 2027-01-01 11:00:00\n---\nHello.\n$/,
      )
      expect(result.stderr).toContain('fixed content/events/new-one.en.md: id 17 given')
      expect(result.stderr).toMatch(
        /fixed content\/events\/new-one.en.md: date \S+ \S+ written \(the file's modification time\)/,
      )
      // Run from inside the content folder, the paths start at it.
      await writeFile(join(dir, 'content/events/one-more.md'), '---\ntitle: One More\ndate: 2026-01-01 10:00:00\n---\n')
      const inside = await almanac(['check', '--fix', '--content', '.'], join(dir, 'content'))
      expect(inside.stderr).toContain('\nfixed events/one-more.md: id 18 given\n')
      expect(await readFile(join(dir, 'content/tags/outdoor.en.md'), 'utf8')).toBe(
        '---\nid: 3\nname: Outdoor\nslug: outdoor\n---\nOutside\n',
      )
      expect(result.stderr).toContain('fixed content/tags/outdoor.en.md: keys put in order')
      const again = await almanac(['check', '--fix'], dir)
      expect(again.stderr).not.toContain('fixed')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('GitHub annotations', () => {
  it('escape file names and messages, so a file named in a pull request forges no workflow command', () => {
    const line = githubAnnotation(
      'error',
      'content/events/x\n::warning file=README.md::INJECTED.en.md',
      3,
      'bad\r\nvalue: 100%',
    )
    expect(line).toBe(
      '::error file=content/events/x%0A%3A%3Awarning file=README.md%3A%3AINJECTED.en.md,line=3::bad%0D%0Avalue: 100%25',
    )
    expect(line.split('\n')).toHaveLength(1)
  })

  it('shows the control characters of a file name escaped, as the text format does', () => {
    const line = githubAnnotation('error', 'content/events/ansi\u001b[31mRED\u001b[0m.en.md', 1, 'bad')
    expect(line).toBe('::error file=content/events/ansi\\u001b[31mRED\\u001b[0m.en.md,line=1::bad')
  })
})

describe('a content folder that is not there', () => {
  it.each([['check'], ['build'], ['serve']])(
    'stops almanac %s with one line and exit 1, never an empty success',
    async (command) => {
      const cwd = await mkdtemp(join(tmpdir(), 'almanac-nofolder-'))
      try {
        const result = await almanac(
          [command, '--content', join(cwd, 'nonexistent'), ...(command === 'serve' ? ['--port', '0'] : [])],
          cwd,
        )
        expect(result.code).toBe(1)
        expect(result.stderr.trim()).toBe(`almanac: ${join(cwd, 'nonexistent')}: no such content folder`)
        expect(result.stdout).not.toMatch(/0 errors|serving/)
      } finally {
        await rm(cwd, { recursive: true, force: true })
      }
    },
  )
})
