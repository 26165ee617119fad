import { existsSync } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { watchContent } from '../../src/content/watch.ts'
import { almanac, eventually, loadStore, tempTree } from './trees.ts'

declare global {
  var __almanacRan: boolean | undefined
}

/** Front matter in JavaScript that, if it ever ran, would leave a marker file and a global behind. */
function scriptFile(fence: string, marker: string, id: number): string {
  return `---${fence}
(function () {
  globalThis.__almanacRan = true
  try { require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran') } catch (e) {}
  return { id: ${id}, title: 'Ran ${id}', slug: 'ran-${id}', status: 'publish', start_date: '2026-12-20 18:00:00', end_date: '2026-12-20 20:00:00' }
})()
---
Body.
`
}

const FENCES = ['js', 'javascript', 'JS', ' js', 'coffee', 'cson', 'json', 'toml', 'yaml js']
const jsonFile = (id: number) =>
  `---json\n{"id": ${id}, "title": "Json ${id}", "start_date": "2026-12-20 18:00:00", "end_date": "2026-12-20 20:00:00"}\n---\n`

let tree: Awaited<ReturnType<typeof tempTree>>
let marker: string
beforeEach(async () => {
  tree = await tempTree()
  marker = join(tree.dir, 'code-ran')
  globalThis.__almanacRan = undefined
})
afterEach(async () => {
  await tree.cleanup()
})

/** Writes one hostile file per fence; returns their paths and ids. */
async function writeHostile(prefix = 'evil') {
  const files = FENCES.map((fence, i) => ({
    path: `events/${prefix}-${i}.en.md`,
    id: 900 + i,
    text: scriptFile(fence, marker, 900 + i),
  }))
  files.push({ path: `events/${prefix}-json.en.md`, id: 950, text: jsonFile(950) })
  for (const file of files) await writeFile(join(tree.content, file.path), file.text)
  return files
}

function expectNothingRan() {
  expect(existsSync(marker), 'the marker file a script would write').toBe(false)
  expect(globalThis.__almanacRan).toBeUndefined()
}

describe('front matter that is not YAML', () => {
  it('is never run when the store loads: each file is a problem on line 1 and is left out', async () => {
    const files = await writeHostile()
    const { store, problems } = await loadStore(tree.content)
    expectNothingRan()
    for (const file of files) {
      expect(store.get('events', file.id), file.path).toBeUndefined()
      expect(
        problems.filter((p) => p.path === file.path),
        file.path,
      ).toEqual([{ path: file.path, line: 1, message: expect.stringMatching(/only YAML front matter is read/) }])
    }
    expect(store.get('events', 8)?.source.data.title).toBe('Plain Meetup')
  })

  it('is never run when the watcher reloads a file, and the last good version stays served', async () => {
    const { store } = await loadStore(tree.content)
    const watching = watchContent(store)
    try {
      await watching.ready
      const files = await writeHostile('later')
      await writeFile(join(tree.content, 'events/plain-meetup.en.md'), scriptFile('js', marker, 8))
      await eventually(() =>
        expect(store.problems().map((p) => p.path)).toEqual(
          expect.arrayContaining([...files.map((f) => f.path), 'events/plain-meetup.en.md']),
        ),
      )
      expectNothingRan()
      for (const file of files) expect(store.get('events', file.id)).toBeUndefined()
      expect(store.get('events', 8)?.source.data.title).toBe('Plain Meetup')
    } finally {
      await watching.close()
    }
  })

  it('makes `almanac check` report each file with its line and exit 1', async () => {
    const files = await writeHostile()
    const { problems } = await checkContent(tree.content, false)
    for (const file of files)
      expect(
        problems.find((p) => p.path === file.path),
        file.path,
      ).toMatchObject({ line: 1, severity: 'error' })
    const result = await almanac(['check'], tree.dir)
    expectNothingRan()
    expect(result.code).toBe(1)
    for (const file of files) expect(result.stdout).toContain(`content/${file.path}:1: `)
    expect(result.stderr).not.toMatch(/^0 errors/m)
  })

  it('is never run by `almanac build`, which leaves the files out of the site', async () => {
    const files = await writeHostile()
    const result = await almanac(['build', '--workers', '1'], tree.dir)
    expect(existsSync(marker)).toBe(false)
    expect(result.code).toBe(0)
    for (const file of files) expect(result.stderr).toContain(`content/${file.path}:1: `)
    const events = await readdir(join(tree.dir, 'dist/wp-json/calendar/events/v1/events'))
    expect(events.length).toBeGreaterThan(0)
    const list = await readFile(join(tree.dir, 'dist/wp-json/calendar/events/v1/events/index.json'), 'utf8').catch(
      () => '',
    )
    expect(list).not.toMatch(/Ran \d|Json \d/)
  })
})
