import fc from 'fast-check'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkContent } from '../../src/content/check.ts'
import { createStore } from '../../src/content/store.ts'
import { call, testApp } from '../helpers.ts'

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-website-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** An event linked to a venue and an organizer, all three with `website` as given (a YAML scalar). */
async function writeTree(content: string, website: string) {
  for (const kind of ['events', 'venues', 'organizers']) await mkdir(join(content, kind), { recursive: true })
  const common = `status: publish\ndate: 2026-11-01 10:00:00\nwebsite: ${website}\n`
  await writeFile(join(content, 'venues/hall.en.md'), `---\nid: 2\nvenue: Hall\nslug: hall\n${common}---\n`)
  await writeFile(join(content, 'organizers/club.en.md'), `---\nid: 3\norganizer: Club\nslug: club\n${common}---\n`)
  const event = `---\nid: 1\ntitle: Show\nslug: show\n${common}start_date: 2026-12-01 10:00:00\nend_date: 2026-12-01 11:00:00\nvenue: [2]\norganizer: [3]\n---\nAbout.\n`
  await writeFile(join(content, 'events/show.en.md'), event)
}

/** Every `website` value anywhere in a JSON answer. */
function websites(value: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) websites(item, found)
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'website') found.push(inner)
      else websites(inner, found)
    }
  }
  return found
}

const ROUTES = [
  'events',
  'events/1',
  'events/by-slug/show',
  'venues',
  'venues/2',
  'venues/by-slug/hall',
  'organizers',
  'organizers/3',
  'organizers/by-slug/club',
]

/** A scheme a browser would run, written the ways browsers still read it: any case, padded, split by tabs. */
const dangerous = fc
  .tuple(
    fc.constantFrom('javascript:', 'data:', 'vbscript:'),
    fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }),
    fc.constantFrom('', ' ', '\t', '\u0001', '\u0000', '\u001f', '\n', ' \u000b'),
    fc.constantFrom('', '\t', '\n', '\r'),
    fc.string({ maxLength: 20, size: 'max' }),
  )
  .map(([scheme, upper, pad, split, rest]) => {
    const cased = [...scheme].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')
    return `${pad}${cased.slice(0, 2)}${split}${cased.slice(2)}${rest || 'alert(1)'}`
  })

describe('a website in a content file', () => {
  it('is never served unless it is an http or https address, whatever scheme trick it uses', async () => {
    let run = 0
    const property = fc.asyncProperty(dangerous, async (website) => {
      const content = join(dir, `tree-${run++}`)
      await writeTree(content, JSON.stringify(website))
      const store = await createStore(content, { defaultLanguage: 'en', fallback: true })
      const app = testApp(store)
      for (const route of ROUTES) {
        const { status, body } = await call(app, route)
        expect(status).toBeLessThan(500)
        for (const served of websites(body))
          expect(served === '' || /^https?:\/\/[!-~]+$/.test(String(served))).toBe(true)
      }
      await rm(content, { recursive: true, force: true })
    })
    await fc.assert(property, { numRuns: 25, seed })
  })

  it('is reported by check in plain words when it is not a web address, and an http(s) one passes', async () => {
    const content = join(dir, 'check-tree')
    await writeTree(content, '"javascript:alert(document.cookie)"')
    await writeFile(join(content, 'venues/hall.en.md'), '---\nid: 2\nvenue: Hall\nslug: hall\nwebsite: notaurl\n---\n')
    await writeFile(
      join(content, 'organizers/club.en.md'),
      '---\nid: 3\norganizer: Club\nslug: club\nwebsite: https://example.org/club\n---\n',
    )
    const { problems } = await checkContent(content, false)
    const errors = problems.filter((p) => p.severity === 'error' && p.message.startsWith('website:'))
    expect(errors.map((p) => `${p.path}:${p.line}: ${p.message}`).sort()).toEqual([
      'events/show.en.md:7: website: "javascript:alert(document.cookie)" is not a web address; use one that starts with http:// or https://',
      'venues/hall.en.md:5: website: "notaurl" is not a web address; use one that starts with http:// or https://',
    ])
  })
})
