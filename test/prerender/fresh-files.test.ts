import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFile, createFileSync, isEmptyFolder, linkNew } from '../../src/prerender/fresh-files.ts'
import { buildSite } from '../../src/prerender/site-builder.ts'
import { createStore } from '../../src/content/store.ts'
import { buildOptions, FIXTURES } from '../helpers.ts'

// A full build into an empty folder writes new files in place; anything already there is replaced atomically.

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-fresh-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('writing a new file in place', () => {
  it.each([
    ['on a worker thread', (path: string, data: Buffer) => Promise.resolve(createFileSync(path, data))],
    ['on the main thread', createFile],
  ])('makes its folders, and leaves a file already there alone (%s)', async (name, create) => {
    const path = join(dir, name, 'a', 'b.json')
    expect(await create(path, Buffer.from('{"new":1}'))).toBe(true)
    expect(await readFile(path, 'utf8')).toBe('{"new":1}')
    expect(await create(path, Buffer.from('{"other":2}'))).toBe(false)
    expect(await readFile(path, 'utf8')).toBe('{"new":1}')
  })

  it('links a new file to another, making its folders, and leaves a file already there alone', async () => {
    const source = join(dir, 'source.json')
    await createFile(source, Buffer.from('{"id":7}'))
    const target = join(dir, 'by-slug', 'deep', 'seven.json')
    expect(await linkNew(source, target)).toBe(true)
    expect((await stat(target)).ino).toBe((await stat(source)).ino)
    expect(await linkNew(join(dir, 'source.json'), target)).toBe(false)
    expect(await linkNew(join(dir, 'missing.json'), join(dir, 'other.json'))).toBe(false)
  })

  it('takes a missing or empty folder as empty, and one with anything in it as not', async () => {
    expect(await isEmptyFolder(join(dir, 'missing'))).toBe(true)
    const empty = await mkdtemp(join(dir, 'empty-'))
    expect(await isEmptyFolder(empty)).toBe(true)
    await writeFile(join(empty, '.hidden'), '')
    expect(await isEmptyFolder(empty)).toBe(false)
  })
})

describe('a full build over what a build that did not finish left', () => {
  it('replaces every file it left, cut short or not, with the answer, and leaves no temporary file', async () => {
    const store = await createStore(join(FIXTURES, 'reference', 'content'), { defaultLanguage: 'en', fallback: true })
    const [clean, over] = [join(dir, 'clean'), join(dir, 'over')]
    await buildSite(buildOptions(store, clean))
    const cut = 'wp-json/calendar/events/v1/events/7.json'
    await createFile(join(over, cut), Buffer.from('{"id":'))
    await buildSite(buildOptions(store, over))
    expect(await readFile(join(over, cut), 'utf8')).toBe(await readFile(join(clean, cut), 'utf8'))
    const names = await readdir(over, { recursive: true })
    expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})
