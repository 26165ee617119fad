import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { as, call, writableApp } from '../helpers.ts'
import { almanac, loadStore, tempTree } from './trees.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function reference() {
  const tree = await tempTree('reference')
  cleanups.push(tree.cleanup)
  return tree
}

// One event with six different mistakes: fixing it used to take a round of `check` per kind of mistake.
const MANY_MISTAKES = [
  '---',
  'id: 40',
  'title: Open Air',
  'status: publsh',
  'start_date: 2026-07-01 19:00',
  'end_date: tomorrow evening',
  'featured: yes',
  'venu: 4',
  'venue: 999',
  'timezone: Mars/Base',
  '---',
  'Under the sky.',
  '',
].join('\n')

describe('almanac check, in one run', () => {
  it('names every mistake of a file with several, each on its line, in plain words', async () => {
    const tree = await reference()
    await writeFile(join(tree.content, 'events/open-air.en.md'), MANY_MISTAKES)
    const result = await almanac(['check'], tree.dir)
    expect(result.code).toBe(1)
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('content/events/open-air.en.md:'))
    expect(lines).toEqual([
      'content/events/open-air.en.md:4: status: "publsh" is not a status; use publish, draft, pending, private, future or trash',
      'content/events/open-air.en.md:6: end_date: "tomorrow evening" is not a date and time written YYYY-MM-DD HH:MM:SS (such as 2026-06-01 19:00:00)',
      'content/events/open-air.en.md:7: featured: "yes" is not true or false',
      'content/events/open-air.en.md:8: warning: venu: not a field of an event, so it is ignored; did you mean venue?',
      'content/events/open-air.en.md:9: venue: 999 is not the id of a venue in content/venues',
      'content/events/open-air.en.md:10: timezone: "Mars/Base" is not an IANA time zone; use a name such as Europe/London or Asia/Kuala_Lumpur',
    ])
    expect(result.stderr).toMatch(/^5 errors, /m)
  })

  it('checks a new file that lacks only its id as the source it is meant to be', async () => {
    const tree = await reference()
    await writeFile(
      join(tree.content, 'events/no-id-yet.en.md'),
      '---\ntitle: No Id Yet\nstatus: drafts\nstart_date: 2026-07-01 19:00:00\nend_date: 2026-07-01 18:00:00\ntags: [77]\n---\n',
    )
    const { problems } = await checkContent(tree.content, false)
    expect(problems.filter((p) => p.path === 'events/no-id-yet.en.md').map((p) => p.message)).toEqual([
      'a source file needs an id (almanac check --fix gives it the next free one)',
      'status: "drafts" is not a status; use publish, draft, pending, private, future or trash',
      'end_date: "2026-07-01 18:00:00" is before start_date "2026-07-01 19:00:00"; an event cannot end before it starts',
      'tags: 77 is not the id of a tag in content/tags',
    ])
  })

  it('checks the translations of a record whose source is broken, and names a clashing id with the other mistakes', async () => {
    const tree = await reference()
    const concert = join(tree.content, 'events/summer-concert.en.md')
    await writeFile(
      concert,
      (await readFile(concert, 'utf8')).replace(/^id: \d+$/m, 'id: 9').replace(/^status: .*$/m, 'status: live'),
    )
    await writeFile(join(tree.content, 'events/summer-concert.ms.md'), '---\ntitle: ""\n---\n')
    const { problems } = await checkContent(tree.content, false)
    const messages = (path: string) => problems.filter((p) => p.path === path).map((p) => p.message)
    expect(messages('events/summer-concert.en.md')).toEqual([
      'status: "live" is not a status; use publish, draft, pending, private, future or trash',
      'id 9 is already used by events/all-day-fair; of two files the one whose path sorts first keeps an id, so remove the id: line of this one and run almanac check --fix',
    ])
    expect(messages('events/summer-concert.ms.md')).toEqual(['title: "" is empty; write at least 1 character'])
  })
})

describe('a hostile value or key in a file', () => {
  it('stays on its line in text, GitHub and JSON output', async () => {
    const tree = await reference()
    const hostile = `---\nid: 41\ntitle: Hostile\nstatus: "pub\\nlish\\u2028\\e[31m\\r::error file=x::forged %0A"\nstart_date: 2026-07-01 19:00:00\nend_date: 2026-07-01 20:00:00\n"ev\\nil\\u0085key": 1\ntimezone: "${'x'.repeat(100_000)}"\n---\n`
    await writeFile(join(tree.content, 'events/hostile.en.md'), hostile)
    const text = await almanac(['check'], tree.dir)
    const ours = text.stdout.split('\n').filter((line) => line.includes('hostile.en.md'))
    // A key that is not a plain name is shown quoted and escaped; its line is not looked for.
    expect(ours).toEqual([
      'content/events/hostile.en.md:1: warning: "ev\\nil\\u0085key": not a field of an event, so it is ignored',
      'content/events/hostile.en.md:4: status: "pub\\nlish\\u2028\\u001b[31m\\r::error file=x::forged %0…" is not a status; use publish, draft, pending, private, future or trash',
      `content/events/hostile.en.md:8: timezone: "${'x'.repeat(40)}…" is not an IANA time zone; use a name such as Europe/London or Asia/Kuala_Lumpur`,
    ])
    const github = await almanac(['check', '--format', 'github'], tree.dir)
    expect(
      github.stdout
        .split('\n')
        .filter((line) => line.includes('hostile'))
        .every((line) => line.startsWith('::')),
    ).toBe(true)
    expect(github.stdout).not.toContain('\n::error file=x')
    const json = await almanac(['check', '--format', 'json'], tree.dir)
    expect(
      JSON.parse(json.stdout)
        .filter((p: { file: string }) => p.file.endsWith('hostile.en.md'))
        .map((p: { message: string }) => p.message),
    ).toEqual(ours.map((line) => line.replace(/^[^:]+:\d+: (warning: )?/, '')))
  })
})

describe('front-matter keys the store does not read', () => {
  it('are warnings with a did-you-mean, and the record still loads', async () => {
    const tree = await reference()
    const hall = join(tree.content, 'venues/town-hall.en.md')
    await writeFile(
      hall,
      (await readFile(hall, 'utf8'))
        .replace('address:', 'adress:')
        .replace('---\n', '---\nColour: red\nShow-Map: true\n'),
    )
    const { store, problems } = await loadStore(tree.content)
    expect(store.get('venues', 4)?.source.data.venue).toBe('Town Hall')
    expect(problems.filter((p) => p.path === 'venues/town-hall.en.md')).toEqual([
      {
        path: 'venues/town-hall.en.md',
        line: 2,
        severity: 'warning',
        message: 'Colour: not a field of a venue, so it is ignored',
      },
      {
        path: 'venues/town-hall.en.md',
        line: 3,
        severity: 'warning',
        message: 'Show-Map: not a field of a venue, so it is ignored; did you mean show_map?',
      },
      {
        path: 'venues/town-hall.en.md',
        line: 10,
        severity: 'warning',
        message: 'adress: not a field of a venue, so it is ignored; did you mean address?',
      },
    ])
  })

  it('hold a translation to its kind’s translated keys, as warnings, and the translation is still served', async () => {
    const tree = await reference()
    await writeFile(
      join(tree.content, 'events/summer-concert.ms.md'),
      '---\ntitle: Konsert Musim Panas\nexcrept: Muzik\nstart_date: 2027-01-01 10:00:00\nall_day: true\n---\nMalam muzik.\n',
    )
    const { store, problems } = await loadStore(tree.content)
    const concert = store.list('events').find((record) => record.stem === 'summer-concert')!
    expect(store.fieldsIn(concert, 'ms')?.title).toBe('Konsert Musim Panas')
    expect(store.fieldsIn(concert, 'ms')?.start_date).toBe(concert.source.data.start_date)
    const held =
      'a translation of an event holds title, slug, excerpt, cost, event_status_reason, overrides and the body'
    expect(problems.filter((p) => p.path === 'events/summer-concert.ms.md')).toEqual([
      {
        path: 'events/summer-concert.ms.md',
        line: 3,
        severity: 'warning',
        message: 'excrept: not a field of a translation of an event, so it is ignored; did you mean excerpt?',
      },
      {
        path: 'events/summer-concert.ms.md',
        line: 4,
        severity: 'warning',
        message: `start_date: not translated, so it is ignored here and the source file's start_date is used; ${held}`,
      },
      {
        path: 'events/summer-concert.ms.md',
        line: 5,
        severity: 'warning',
        message: `all_day: not translated, so it is ignored here and the source file's all_day is used; ${held}`,
      },
    ])
  })

  it('do not fail almanac check', async () => {
    const tree = await reference()
    const hall = join(tree.content, 'venues/town-hall.en.md')
    await writeFile(hall, (await readFile(hall, 'utf8')).replace('---\n', '---\ncolour: red\n'))
    const result = await almanac(['check'], tree.dir)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      'content/venues/town-hall.en.md:2: warning: colour: not a field of a venue, so it is ignored\n',
    )
  })
})

describe('the server’s warnings and /diagnostics', () => {
  it('say the same thing as almanac check, warnings marked as warnings', async () => {
    const app = await writableApp('reference')
    cleanups.push(async () => (await import('node:fs/promises')).rm(app.dir, { recursive: true, force: true }))
    await writeFile(join(app.content, 'events/open-air.en.md'), MANY_MISTAKES.replace('venue: 999\n', ''))
    await app.store.reload(['events/open-air.en.md'])
    const { body } = await call(app, 'diagnostics', { headers: as('editor') })
    const served = body.problems.filter((p: { path: string }) => p.path === 'content/events/open-air.en.md')
    const printed = app.problems.filter((p) => p.path === 'events/open-air.en.md')
    const checked = (await checkContent(app.content, false)).problems.filter((p) => p.path === 'events/open-air.en.md')
    // the log tells each as found; /diagnostics and check list them by path, then line
    const byLine = [...printed].sort((a, b) => (a.line ?? 1) - (b.line ?? 1))
    expect(served.map((p: { message: string }) => p.message)).toEqual(byLine.map((p) => p.message))
    expect(served).toEqual(
      [...checked]
        .sort((a, b) => (a.line ?? 1) - (b.line ?? 1))
        .map((p) => ({ path: `content/${p.path}`, line: p.line, severity: p.severity, message: p.message })),
    )
    expect(served).toContainEqual({
      path: 'content/events/open-air.en.md',
      line: 8,
      severity: 'warning',
      message: 'venu: not a field of an event, so it is ignored; did you mean venue?',
    })
    expect(served).toHaveLength(5)
  })
})
