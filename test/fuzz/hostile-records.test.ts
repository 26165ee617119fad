import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openUsers } from '../../src/auth/users.ts'
import { checkContent } from '../../src/content/check.ts'
import { createStore, type Problem } from '../../src/content/store.ts'
import { buildSite, createSiteBuilder } from '../../src/prerender/site-builder.ts'
import { as, buildOptions, call, FIXTURES, json, longestBlock, testApp, writableApp } from '../helpers.ts'

// Content files from a stranger's pull request, each of a shape an adversarial review of slugs, images, ids and term
// filters found to break an answer, the build or the event loop.

const trees: string[] = []
afterEach(async () => {
  for (const dir of trees.splice(0)) await rm(dir, { recursive: true, force: true })
})

/** A tree of exactly these files, and a store and app over it. */
async function treeOf(files: Record<string, string | Buffer>) {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-hostile-records-'))
  trees.push(dir)
  const content = join(dir, 'content')
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(content, path)), { recursive: true })
    await writeFile(join(content, path), text)
  }
  const problems: Problem[] = []
  const store = await createStore(content, {
    defaultLanguage: 'en',
    fallback: true,
    onProblem: (problem) => problems.push(problem),
  })
  return { dir, content, store, problems, app: testApp(store) }
}

const event = (id: number, extra = '', slug = `event-${id}`) =>
  `---\nid: ${id}\ntitle: Event ${id}\nslug: ${slug}\ndate: 2026-11-01 09:00:00\nstart_date: 2026-12-10 10:00:00\nend_date: 2026-12-10 12:00:00\n${extra}\n---\nBody\n`

describe('an image address that is no URL', () => {
  it('is no image: the event, its lists and the build are served, and check names the file', async () => {
    const { dir, content, store, app } = await treeOf({
      'events/a.en.md': event(10, 'image: "http://["'),
      'events/b.en.md': event(11, 'image: "https://exa mple.com/x.png"'),
      'events/c.en.md': event(12, 'image: "https://example.com/x.png"'),
      'events/d.en.md': event(13, 'image: "https://example.my/gambar/café.jpg"'),
    })
    for (const id of [10, 11]) {
      const one = await call(app, `events/${id}`)
      expect(one.status).toBe(200)
      expect(one.body.image).toBe(false)
    }
    expect((await call(app, 'events/12')).body.image).toEqual({ url: 'https://example.com/x.png', extension: 'png' })
    // Any URL a URL parser reads is an image, non-ASCII too, as it always was.
    expect((await call(app, 'events/13')).body.image).toEqual({
      url: 'https://example.my/gambar/café.jpg',
      extension: 'jpg',
    })
    const list = await call(app, 'events')
    expect(list.status).toBe(200)
    expect(list.body.events).toHaveLength(4)
    const built = await buildSite(buildOptions(store, join(dir, 'dist')))
    expect(built.files).toBeGreaterThan(0)
    const { problems } = await checkContent(content, false)
    expect(problems.map((problem) => [problem.path, problem.message])).toEqual([
      ['events/a.en.md', 'image: "http://[" is not a URL, so the record is served without an image'],
      ['events/b.en.md', 'image: "https://exa mple.com/x.png" is not a URL, so the record is served without an image'],
    ])
    expect(await readFile(join(content, 'events/a.en.md'), 'utf8')).toBe(event(10, 'image: "http://["'))
  })
})

describe('a file that holds the highest id there may be', () => {
  it('makes creates a clear 409 with nothing written, and no file is given an id past it', async () => {
    const writable = await writableApp('reference')
    trees.push(writable.dir)
    const media = join(writable.content, 'media')
    await copyFile(join(media, '6-poster.png'), join(media, '999999999-top.png'))
    // An id past the highest (refused as a post's) holds back nothing.
    await copyFile(join(media, '6-poster.png'), join(media, '5000000000-past.png'))
    await writable.store.reload(['media/999999999-top.png', 'media/5000000000-past.png'])
    const before = await textsUnder(writable.content)
    for (const [route, body] of [
      ['venues', { venue: 'New hall' }],
      ['events', { title: 'New', start_date: '2027-03-02 18:00:00', end_date: '2027-03-02 21:00:00' }],
    ] as const) {
      const created = await call(writable, route, json('POST', body, as('admin')))
      expect(created.status, route).toBe(409)
      expect(created.body.code).toBe('rest_no_ids_left')
      expect(created.body.message).toMatch(/holds id 999999999, the highest there may be/)
    }
    // A term's ids are another space: a tag is still created.
    expect((await call(writable, 'tags', json('POST', { name: 'Fresh' }, as('admin')))).status).toBe(201)
    const afterTag = await textsUnder(writable.content)
    afterTag.delete([...afterTag.keys()].find((path) => path.startsWith('tags/fresh'))!)
    expect(afterTag).toEqual(before)
    // A source written by hand without an id is told of and left as it is.
    const handmade = '---\ntitle: Handmade\nstart_date: 2027-03-02 18:00:00\nend_date: 2027-03-02 21:00:00\n---\nBody\n'
    await writeFile(join(writable.content, 'events', 'handmade.en.md'), handmade)
    await writable.store.reload(['events/handmade.en.md'])
    expect(await readFile(join(writable.content, 'events', 'handmade.en.md'), 'utf8')).toBe(handmade)
    const told = writable.problems.filter((problem) => problem.path === 'events/handmade.en.md')
    expect(told.map((problem) => problem.message).join('\n')).toMatch(/No id is left for a new event/)
  })
})

/** Every file under `dir` (relative path → text), the tree's state to compare. */
async function textsUnder(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const texts = new Map<string, string>()
  for (const entry of entries.filter((one) => one.isFile()))
    texts.set(
      join(entry.parentPath, entry.name).slice(dir.length + 1),
      await readFile(join(entry.parentPath, entry.name), 'latin1'),
    )
  return texts
}

describe('a record whose file name differs from a new one only in case', () => {
  it('keeps its file: the new record is written under another name, as a disk that ignores case needs', async () => {
    const writable = await writableApp('reference')
    trees.push(writable.dir)
    const theirs = join(writable.content, 'events', 'Jazz.en.md')
    await writeFile(theirs, event(900, '', 'their-jazz'))
    await writable.store.reload(['events/Jazz.en.md'])
    const body = { title: 'Jazz', start_date: '2027-03-02 18:00:00', end_date: '2027-03-02 21:00:00' }
    const created = await call(writable, 'events', json('POST', body, as('admin')))
    expect(created.status).toBe(201)
    const names = (await readdir(join(writable.content, 'events'))).filter((name) => /^jazz/i.test(name))
    expect(names.sort()).toEqual(['Jazz.en.md', `jazz-${created.body.id}.en.md`])
    expect(await readFile(theirs, 'utf8')).toBe(event(900, '', 'their-jazz'))
  })
})

describe('two files whose names differ only in case', () => {
  it('are two records here, and check warns of the second: a macOS or Windows checkout keeps one', async () => {
    const { content } = await treeOf({ 'events/Jazz.en.md': event(10), 'events/jazz.en.md': event(11) })
    const { problems } = await checkContent(content, false)
    expect(problems.map((problem) => [problem.path, problem.severity, problem.message])).toEqual([
      [
        'events/jazz.en.md',
        'warning',
        'differs from events/Jazz.en.md only in case: on macOS and Windows the two are one file, and a checkout keeps one of them',
      ],
    ])
  })

  it('a folder inside a kind folder is read as nothing, and check says so', async () => {
    const { content, store } = await treeOf({ 'events/sub/x.en.md': event(10), 'events/.hidden/y.en.md': event(11) })
    expect(store.get('events', 10)).toBeUndefined()
    const { problems } = await checkContent(content, false)
    expect(problems.map((problem) => [problem.path, problem.severity, problem.message])).toEqual([
      ['events/sub', 'warning', 'is a folder: records are the files right in events/, so nothing in it is read'],
    ])
  })

  it('a kind folder that is a link is not looked into, not even for its folders', async () => {
    const { dir, content } = await treeOf({ 'events/a.en.md': event(10) })
    await mkdir(join(dir, 'elsewhere', 'private-folder'), { recursive: true })
    await symlink(join(dir, 'elsewhere'), join(content, 'venues'))
    const { problems } = await checkContent(content, false)
    expect(problems.map((problem) => problem.path)).toEqual(['venues'])
    expect(JSON.stringify(problems)).not.toContain('private-folder')
  })
})

describe('a high-water mark past the highest id', () => {
  it('names no id ever given, so it holds back no create', async () => {
    const writable = await writableApp('reference')
    trees.push(writable.dir)
    await writeFile(join(writable.content, '.ids.yaml'), 'post: 5000000000\nterm: 3\n')
    const store = await createStore(writable.content, { defaultLanguage: 'en', fallback: true })
    const app = testApp(store, { users: openUsers(join(writable.dir, 'users.yaml')) })
    const created = await call(app, 'venues', json('POST', { venue: 'New hall' }, as('admin')))
    expect(created.status).toBe(201)
    expect(created.body.id).toBeLessThan(1_000)
  })

  it('at the highest id itself: creates answer 409 naming the file, and check reports it', async () => {
    const writable = await writableApp('reference')
    trees.push(writable.dir)
    await writeFile(join(writable.content, '.ids.yaml'), 'post: none-yet\npost: 999999999\nterm: 3\npost: 4\n')
    const store = await createStore(writable.content, { defaultLanguage: 'en', fallback: true })
    const app = testApp(store, { users: openUsers(join(writable.dir, 'users.yaml')) })
    const created = await call(app, 'venues', json('POST', { venue: 'New hall' }, as('admin')))
    expect(created.status).toBe(409)
    expect(created.body.message).toMatch(
      /^No id is left for a new event, venue or organizer: content\/\.ids\.yaml says/,
    )
    const { problems } = await checkContent(writable.content, false)
    expect(problems.filter((problem) => problem.path === '.ids.yaml')).toEqual([
      {
        path: '.ids.yaml',
        line: 2,
        message:
          'post: leaves no id for a new event, venue or organizer (the API answers 409); it keeps the highest id the tree ever used',
      },
    ])
  })
})

describe('translations by the thousand that want one slug', () => {
  it('settle again after an edit in time linear in their number', async () => {
    const files: Record<string, string> = {}
    const N = 3000
    for (let i = 1; i <= N; i++) {
      const stem = `e${String(i).padStart(5, '0')}`
      files[`events/${stem}.en.md`] = event(i)
      files[`events/${stem}.ms.md`] = '---\ntitle: Sama\nslug: sama\n---\nBadan\n'
    }
    const { content, store, problems } = await treeOf(files)
    // One translation holds the slug; each other is told of and left out.
    expect(problems.filter((problem) => /slug/.test(problem.message))).toHaveLength(N - 1)
    expect((await call(testApp(store), '/ms/wp-json/calendar/events/v1/events/by-slug/sama')).body.id).toBe(1)
    await rm(join(content, 'events/e00001.ms.md'))
    // Every loser settles again (one may hold the slug now): each asked for all problems of the tree, 5 s at
    // 3,000 on this machine, against 0.34 s now. The bound is loose, for a busy machine.
    expect((await longestBlock(() => store.reload(['events/e00001.ms.md'])))[0]).toBeLessThan(2_500)
    expect((await call(testApp(store), '/ms/wp-json/calendar/events/v1/events/by-slug/sama')).body.id).toBe(2)
  }, 120_000)
})

describe('a term filter that names a term a thousand times by name', () => {
  it('finds each name once per store version, not by going through every term', async () => {
    const files: Record<string, string> = { 'events/a.en.md': event(10, 'tags: [5000]') }
    for (let i = 1; i <= 5000; i++) files[`tags/t${i}.en.md`] = `---\nid: ${i}\nname: Tag ${i}\nslug: tag-${i}\n---\n`
    const { store, app } = await treeOf(files)
    let asked = 0
    const fieldsIn = store.fieldsIn
    store.fieldsIn = (record, lang) => {
      asked++
      return fieldsIn(record, lang)
    }
    // Lower case: the name, not the slug. Each looked through all 5,000 terms: 10 s for 1,000 of them.
    const names = Array.from({ length: 1_000 }, () => encodeURIComponent('tag 5000')).join(',')
    const answer = await call(app, `events?tags=${names}`)
    expect(answer.status).toBe(200)
    expect(answer.body.events.map((one: { id: number }) => one.id)).toEqual([10])
    expect(asked).toBeLessThan(20_000)
    // Renamed, the term is found by its new name only.
    await writeFile(join(store.dir, 'tags/t5000.en.md'), '---\nid: 5000\nname: Renamed\nslug: tag-5000\n---\n')
    await store.reload(['tags/t5000.en.md'])
    expect((await call(app, `events?tags=renamed`)).body.events).toHaveLength(1)
    expect((await call(app, `events?tags=${encodeURIComponent('tag 5000')}`)).status).toBe(400)
  }, 60_000)
})

describe('an image file that is no image but starts like a JPEG', () => {
  it('is not walked byte by byte, and a change under media/ reads only what changed', async () => {
    const poster = await readFile(join(FIXTURES, 'reference', 'content', 'media', '6-poster.png'))
    // image-size steps through a JPEG without markers a byte at a time: 4.4 s for this one, at each change.
    const bad = Buffer.alloc(20 * 1024 * 1024)
    bad[0] = 0xff
    bad[1] = 0xd8
    const started = performance.now()
    const { content, store, app } = await treeOf({
      'events/a.en.md': event(10, 'image: 6'),
      'media/6-poster.png': poster,
      'media/7-poster.png': bad,
    })
    expect(performance.now() - started).toBeLessThan(2_500)
    expect(store.media.byId(7)).toMatchObject({ filesize: bad.length })
    expect(store.media.byId(7)?.width).toBeUndefined()
    const sized = (await call(app, 'events/10')).body.image
    expect(sized).toMatchObject({ id: 6, width: expect.any(Number), height: expect.any(Number) })
    // Files changed long enough ago for their stamps to tell (see RACY_MS) are kept as they were read.
    const past = new Date(Date.now() - 60_000)
    for (const name of ['6-poster.png', '7-poster.png']) await utimes(join(content, 'media', name), past, past)
    await store.reload(['media/6-poster.png'])
    const kept = [store.media.byId(6), store.media.byId(7)]
    await writeFile(join(content, 'media/8-other.png'), poster)
    expect((await longestBlock(() => store.reload(['media/8-other.png'])))[0]).toBeLessThan(1_000)
    expect(store.media.byId(8)).toMatchObject({ width: sized.width, height: sized.height })
    expect([store.media.byId(6), store.media.byId(7)]).toEqual(kept)
    expect(store.media.byId(6)).toBe(kept[0])
    expect(store.media.byId(7)).toBe(kept[1])
    await writeFile(join(content, 'media/6-poster.png'), bad.subarray(0, 1_000))
    await store.reload(['media/6-poster.png'])
    expect(store.media.byId(6)).toMatchObject({ filesize: 1_000 })
  }, 60_000)

  it('a JPEG whose profiles pass 128 KiB before its frame header keeps its size', async () => {
    const segment = () => {
      const bytes = Buffer.alloc(65_535)
      bytes.set([0xff, 0xe2])
      bytes.writeUInt16BE(65_533, 2)
      return bytes
    }
    const frame = Buffer.from([0xff, 0xc0, 0, 17, 8, 0x01, 0xe0, 0x02, 0x80, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8]),
      segment(),
      segment(),
      segment(),
      frame,
      Buffer.from([0xff, 0xd9]),
    ])
    const { app } = await treeOf({ 'events/a.en.md': event(10, 'image: 7'), 'media/7-photo.jpg': jpeg })
    expect((await call(app, 'events/10')).body.image).toMatchObject({ width: 640, height: 480 })
  })
})

describe('a slug that holds a slash, beside one that is its escaped text', () => {
  it('has no by-slug file, so the build never answers one slug with the other record', async () => {
    const { dir, store, app } = await treeOf({
      'events/a.en.md': event(10, '', '"x/y"'),
      'events/b.en.md': event(11, '', '"x%2Fy"'),
    })
    expect((await call(app, 'events/by-slug/x%2Fy')).body.id).toBe(10)
    expect((await call(app, 'events/by-slug/x%252Fy')).body.id).toBe(11)
    const out = join(dir, 'dist')
    const builder = createSiteBuilder(buildOptions(store, out, { slugPages: true }))
    const changes: Parameters<typeof builder.update>[0] = []
    store.onChange((was, is) => changes.push([was, is]))
    await builder.full()
    const bySlug = join(out, 'wp-json/calendar/events/v1/events/by-slug')
    // A static host decodes `x%252Fy.json` to this file name, the live `x%252Fy`: event 11.
    expect(await readdir(bySlug)).toEqual(['x%2Fy.json'])
    expect(JSON.parse(await readFile(join(bySlug, 'x%2Fy.json'), 'utf8')).id).toBe(11)
    expect(JSON.parse(await readFile(join(out, 'slugs.json'), 'utf8')).en.events).toEqual({ 'x/y': 10, 'x%2Fy': 11 })
    // An update of the record with the slash writes no by-slug file either.
    await writeFile(join(store.dir, 'events/a.en.md'), event(10, 'excerpt: Changed', '"x/y"'))
    await store.reload(['events/a.en.md'])
    await builder.update(changes.splice(0))
    expect(await readdir(bySlug)).toEqual(['x%2Fy.json'])
    expect(JSON.parse(await readFile(join(bySlug, 'x%2Fy.json'), 'utf8')).id).toBe(11)
  })
})

describe('an SVG image that holds a script', () => {
  it('is served, live and by the build, under a policy that runs nothing', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>fetch("/x")</script></svg>'
    const { dir, store, app } = await treeOf({ 'events/a.en.md': event(10, 'image: 7'), 'media/7-x.svg': svg })
    const served = await app.fetch(new Request('http://127.0.0.1:8089/media/7-x.svg'))
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/svg+xml')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox")
    const out = join(dir, 'dist')
    await buildSite(buildOptions(store, out))
    const headers = await readFile(join(out, '_headers'), 'utf8')
    const media = headers.slice(headers.indexOf('/media/*'))
    expect(media).toMatch(/^ {2}Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; sandbox$/m)
    expect(headers).toMatch(/^\/\*\n(?: {2}.*\n)* {2}X-Content-Type-Options: nosniff$/m)
  })
})

describe('a file without a language beside the same language named', () => {
  it('is one file too many: the source is served, and the other is told of', async () => {
    const translation = '---\ntitle: Other title\n---\nOther body\n'
    for (const [source, other] of [
      ['events/x.md', 'events/x.en.md'],
      ['events/x.en.md', 'events/x.md'],
    ] as const) {
      const { app, problems } = await treeOf({ [source]: event(10), [other]: translation })
      expect((await call(app, 'events/10')).body.title).toBe('Event 10')
      expect(problems.map((problem) => [problem.path, problem.message])).toContainEqual([
        other,
        `${source} is this record's en file already, so this one is not read`,
      ])
    }
  })

  it('of two translations, the first in path order is read, however they arrived, and one is told of', async () => {
    const translation = (title: string) => `---\ntitle: ${title}\n---\nBody ${title}\n`
    const { content, store } = await treeOf({
      'events/x.ms.md': event(10),
      'events/x.md': translation('Plain'),
      'events/x.en.md': translation('Named'),
    })
    const title = async () => (await call(testApp(store), '/wp-json/calendar/events/v1/events/10')).body.title
    const told = () => store.problems().filter((problem) => /so this one is not read$/.test(problem.message))
    expect(await title()).toBe('Named')
    await rm(join(content, 'events/x.en.md'))
    await store.reload(['events/x.en.md'])
    expect(await title()).toBe('Plain')
    expect(told()).toEqual([])
    await writeFile(join(content, 'events/x.en.md'), translation('Named'))
    await store.reload(['events/x.en.md'])
    expect(await title()).toBe('Named')
    expect(told().map((problem) => problem.path)).toEqual(['events/x.md'])
  })
})

describe('categories by the ten thousand, under one parent or chained', () => {
  it('a category filter finds descendants in time linear in the tree, however deep', async () => {
    const category = (id: number, parent: number) =>
      `---\nid: ${id}\nname: C${id}\nslug: c-${id}\n${parent ? `parent: ${parent}\n` : ''}---\n`
    const files: Record<string, string> = { 'events/a.en.md': event(100_000, 'categories: [20000]') }
    // 1 holds 2–15,000 as one chain, each the parent of the next (recursion overflowed: a 500); 15,001–30,000 are
    // children of 1 (each request copied the parent's list per child: seconds a filter).
    for (let id = 1; id <= 30_000; id++)
      files[`categories/c${id}.en.md`] = category(id, id === 1 ? 0 : id <= 15_000 ? id - 1 : 1)
    files['events/b.en.md'] = event(100_001, 'categories: [14999]')
    const { app } = await treeOf(files)
    const started = performance.now()
    const answer = await call(app, 'events?categories=c-1')
    expect(performance.now() - started).toBeLessThan(1_500)
    expect(answer.status).toBe(200)
    expect(answer.body.events.map((one: { id: number }) => one.id).sort()).toEqual([100_000, 100_001])
    expect((await call(app, 'events?categories=c-14999')).body.events.map((one: { id: number }) => one.id)).toEqual([
      100_001,
    ])
  }, 120_000)
})
