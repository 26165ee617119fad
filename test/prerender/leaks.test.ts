import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { fixtureApp, buildOptions } from '../helpers.ts'

// test/fixtures/visibility: words that only records that are not public, or the protected fields
// of public ones, contain (see test/routes/visibility.test.ts for the records).
const SECRETS = [
  'Hiddenlane',
  'Cloakton',
  'Venuesecret',
  'lockedhall',
  'orgsecret',
  'Orgsecret',
  'Galasecret',
  'confidential',
  'Authordraft',
  'Contribdraft',
  'Contribpending',
  'Privateorg',
  'Editorprivate',
  'Laterday',
  'Trashed',
]

let out: string
let files: Map<string, string>
beforeAll(async () => {
  const app = await fixtureApp('visibility')
  expect(app.problems).toEqual([])
  out = await mkdtemp(join(tmpdir(), 'almanac-leaks-'))
  await buildSite(buildOptions(app.store, out))
  files = new Map()
  for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name), 'utf8'))
  }
})
afterAll(() => rm(out, { recursive: true, force: true }))

describe('almanac build over records that are not public', () => {
  it('writes the public records, protected ones blanked', () => {
    const names = [...files.keys()].map((file) => file.slice(out.length))
    expect(names).toContain('/wp-json/calendar/events/v1/venues/102.json')
    expect(names).toContain('/wp-json/calendar/events/v1/events/401.json')
    expect(names).not.toContain('/wp-json/calendar/events/v1/events/403.json')
  })

  it('writes no file that contains a word of a record that is not public, or of a protected field', () => {
    for (const [file, text] of files) {
      for (const secret of SECRETS)
        expect(text.includes(secret), `${file.slice(out.length)} contains ${secret}`).toBe(false)
    }
  })
})
