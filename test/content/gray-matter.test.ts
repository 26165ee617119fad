import fc from 'fast-check'
import matter from 'gray-matter'
import { afterEach, describe, expect, it } from 'vitest'
import { blankLineSteps, readWithGrayMatter } from '../../src/content/files/front-matter-read.ts'
import { FrontMatterError } from '../../src/content/files/yaml-data.ts'
import { isCutAsWritten, parseFrontMatter, readWithSplit, splitFile } from '../../src/content/files/front-matter.ts'

declare global {
  var __grayMatterRan: number | undefined
}

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const grayMatter = matter as typeof matter & {
  engines: Record<string, unknown>
  cache: Record<string, unknown>
  clearCache(): void
}

/** Every name gray-matter registers or aliases, names a plain object inherits, and odd spellings of them. */
const LANGUAGES = [
  ...new Set([
    ...Object.keys(grayMatter.engines).filter((name) => !/^ya?ml$/i.test(name)),
    ...['js', 'javascript', 'json', 'coffee', 'coffeescript', 'cson', 'toml'],
    ...Object.getOwnPropertyNames(Object.prototype),
    ...[
      'JS',
      'Js',
      ' js',
      'js ',
      '\tjs',
      'javascript ',
      ' JavaScript',
      'JAVASCRIPT',
      '\u00a0js',
      '\ufeffjs',
      'js\u2028',
      'Json',
      'JSON',
      ' json',
      'Coffee',
      'CSON',
    ],
    ...['yaml js', 'js yaml', 'yamljs', 'ymlx', 'yaml:', 'yaml\u200bjs', 'jsx', 'mjs', 'ts', 'node', 'eval'],
  ]),
]
const SCRIPT =
  '(function () { globalThis.__grayMatterRan = (globalThis.__grayMatterRan ?? 0) + 1; return { id: 1, title: "Ran" } })()'
const JSON_DATA = '{"id": 1, "title": "Ran"}'
const fenced = (language: string) => `---${language}\n${/json/i.test(language) ? JSON_DATA : SCRIPT}\n---\nBody.\n`

afterEach(() => {
  globalThis.__grayMatterRan = undefined
})

/** Expects `read` to throw a FrontMatterError on line 1 whose message ends as `ending` says. */
function expectRefused(read: () => unknown, language: string, ending: RegExp) {
  expect(read, JSON.stringify(language)).toThrow(FrontMatterError)
  try {
    read()
  } catch (error) {
    expect((error as FrontMatterError).line, JSON.stringify(language)).toBe(1)
    expect((error as FrontMatterError).message, JSON.stringify(language)).toMatch(ending)
  }
}
const BY_FENCE_CHECK = /is never read: only YAML front matter is read$/
const BY_ENGINE = /only YAML front matter is read \(refused by its engine\)$/

describe('gray-matter reading content files', () => {
  it('hands a block to no engine but the safe YAML one: every other language, however spelled, is refused on line 1 and nothing runs', () => {
    // The fence check refuses each before gray-matter is called: not even a refusing engine runs.
    for (const language of LANGUAGES) expectRefused(() => parseFrontMatter(fenced(language)), language, BY_FENCE_CHECK)
    expect(globalThis.__grayMatterRan).toBeUndefined()
  })

  it('would run these scripts with its default engines, so the test above proves the guard', () => {
    // Options are passed so gray-matter's cache is left alone; the engines are its defaults.
    const ran = LANGUAGES.filter((language) => {
      globalThis.__grayMatterRan = undefined
      try {
        return matter(fenced(language), {}).data.title === 'Ran' || globalThis.__grayMatterRan !== undefined
      } catch {
        return globalThis.__grayMatterRan !== undefined
      }
    })
    expect(ran).toEqual(
      expect.arrayContaining([
        'javascript',
        'js',
        'json',
        'JS',
        ' js',
        'js ',
        'javascript ',
        'JAVASCRIPT',
        '\u00a0js',
        '\ufeffjs',
        'js\u2028',
        ' json',
      ]),
    )
  })

  it('refuses every language but YAML in the engines too, should the fence check ever be skipped', () => {
    // Refused by an engine of ours, by gray-matter finding none, or (for names every object
    // inherits, which reach Object.prototype's functions) by the check of the language it read.
    for (const language of LANGUAGES) expectRefused(() => readWithGrayMatter(fenced(language)), language, /./)
    for (const language of [
      'js',
      'javascript',
      'JS',
      ' js',
      'javascript ',
      'json',
      'coffee',
      'coffeescript',
      'cson',
      'toml',
      ...Object.keys(grayMatter.engines).filter((name) => !/^ya?ml$/i.test(name)),
    ]) {
      expectRefused(() => readWithGrayMatter(fenced(language)), language, BY_ENGINE)
    }
    expect(globalThis.__grayMatterRan).toBeUndefined()
  })

  it('overrides an engine registered on gray-matter after loading too', () => {
    const engines = grayMatter.engines as Record<string, { parse: () => object }>
    engines.YML = engines.lua = { parse: () => ({ id: 666, ran: (globalThis.__grayMatterRan = 1) }) }
    try {
      expect(parseFrontMatter('---YML\nid: 1\n---\n').data).toEqual({ id: 1 })
      expectRefused(() => readWithGrayMatter(fenced('lua')), 'lua', BY_ENGINE)
      expect(globalThis.__grayMatterRan).toBeUndefined()
    } finally {
      delete engines.YML
      delete engines.lua
    }
  })

  it('reads YAML fences with the safe loader, not gray-matter’s YAML engine', () => {
    for (const fence of ['', 'yaml', 'yml', 'YAML', ' Yml ']) {
      const text = `---${fence}\nstart_date: 2026-07-14 19:00:00\n---\n`
      // gray-matter's own engine (js-yaml's default schema) makes a Date of it; ours keeps the wall clock.
      expect(matter(text, {}).data.start_date, fence).toBeInstanceOf(Date)
      expect(readWithGrayMatter(text).data.start_date, fence).toBe('2026-07-14 19:00:00')
      expect(() => readWithGrayMatter(`---${fence}\nid: 1\n__proto__: {polluted: true}\n---\n`), fence).toThrow(
        /key "__proto__" is not allowed/,
      )
    }
  })

  it('leaves gray-matter’s cache alone and never hands back data another caller cached', () => {
    const text = '---\nid: 1\ntags: [1, 2]\n---\nBody\n'
    try {
      const cached = matter(text) // another caller, without options: gray-matter keeps this file
      cached.data.id = 666
      cached.data.tags.push(3)
      const size = Object.keys(grayMatter.cache).length
      const [first, second] = [parseFrontMatter(text), parseFrontMatter(text)]
      expect(first.data).toEqual({ id: 1, tags: [1, 2] })
      expect(Object.keys(grayMatter.cache)).toHaveLength(size)
      ;(first.data.tags as number[]).push(4)
      expect(second.data).toEqual({ id: 1, tags: [1, 2] })
      expect(parseFrontMatter('---\nid: 2\n---\n').data).toEqual({ id: 2 })
      expect(Object.keys(grayMatter.cache)).toHaveLength(size)
    } finally {
      grayMatter.clearCache()
    }
  })

  it.each([
    ['a byte-order mark', '\ufeff---\nid: 1\n---\nBody', { id: 1 }, 'Body'],
    ['two byte-order marks (no front matter)', '\ufeff\ufeff---\nid: 1\n---\nBody', {}, '\ufeff---\nid: 1\n---\nBody'],
    ['a block never closed', '---\nid: 1\ntitle: Open\n', { id: 1, title: 'Open' }, ''],
    ['an empty block', '---\n---\nBody', {}, 'Body'],
    ['a block of comments and a lone #', '---\n# note\n#\n  # indented\n---\nBody', {}, 'Body'],
    ['a ---yaml fence', '---yaml\r\nid: 1\r\n---\r\nBody\r\n', { id: 1 }, 'Body'],
    ['only a ---yml fence', '---yml', {}, ''],
    ['only a --- fence and blanks', '--- \t', {}, ''],
    ['a fence of blanks', '---  \nid: 1\n---\n', { id: 1 }, ''],
    ['a fence of blanks YAML does not take as blanks', '---\v\u00a0\r\nid: 1\n---\n', { id: 1 }, ''],
    ['four dashes (no front matter)', '----\nid: 1\n----\n', {}, '----\nid: 1\n----'],
    ['the rest of the closing line', '---\nid: 1\n---- trailing\nBody', { id: 1 }, '- trailing\nBody'],
  ])('reads a file with %s as before', (_, text, data, body) => {
    const read = parseFrontMatter(text)
    expect(read.data).toEqual(data)
    expect(read.body).toBe(body)
  })

  it('reports a YAML error on the line of the file it is on', () => {
    expect(() => parseFrontMatter('---\nid: 1\ntitle: [unclosed\n---\n')).toThrow(FrontMatterError)
    try {
      parseFrontMatter('---yaml\nid: 1\n\ntitle: a: b\n---\n')
    } catch (error) {
      expect((error as FrontMatterError).line).toBe(4)
    }
    expect(parseFrontMatter('---\nzip: 01234\nid: 7 # comment\n---\n').written).toEqual({ zip: '01234', id: '7' })
  })
})

describe('gray-matter and splitFile', () => {
  // Pieces that make fences, closing lines, blank runs and comments meet in every way.
  const piece = fc.constantFrom(
    '---',
    '-',
    '\n',
    '\r\n',
    '\r',
    ' ',
    '\t',
    '#',
    '# c',
    'yaml',
    'yml',
    'id: 1',
    'title: T',
    'zip: 012',
    '[',
    ':',
    '\u2028',
    '\u00a0',
    '\ufeff',
    'x',
  )
  const head = fc.constantFrom(
    '---',
    '---\n',
    '---yaml\n',
    '---  \n',
    '--- yml \r\n',
    '---\t\n',
    '\ufeff---\n',
    '---\v\n',
    '---\r\t\n',
  )
  const text = fc
    .tuple(head, fc.array(piece, { maxLength: 40, size: 'max' }))
    .map(([start, rest]) => start + rest.join(''))

  const outcome = (
    read: () => { data: unknown; block: string; body: string },
  ): { data?: unknown; block?: string; body?: string; error?: string; line?: number } => {
    try {
      const { data, block, body } = read()
      return { data, block, body }
    } catch (error) {
      return { error: (error as Error).message, line: (error as FrontMatterError).line }
    }
  }

  it('cut every file gray-matter is given into the same parts with the same data, so the writer’s offsets fit what was read', () => {
    let compared = 0
    fc.assert(
      fc.property(text, (file) => {
        const parts = splitFile(file)
        if (!parts || !isCutAsWritten(file, parts) || (parts.language !== '' && !/^ya?ml$/i.test(parts.language)))
          return
        compared++
        const source = file.replace(/^\ufeff/, '')
        expect(matter.language(source).name).toBe(parts.language)
        const gray = outcome(() => readWithGrayMatter(source))
        const split = outcome(() => readWithSplit(parts))
        // After a bare `---`, gray-matter keeps the spaces and tabs on the fence's line as the block's start.
        if (gray.block !== undefined && split.block !== undefined) {
          const cut = gray.block.length - split.block.length
          expect(gray.block.slice(cut)).toBe(split.block)
          expect(gray.block.slice(0, cut)).toMatch(/^[ \t]*$/)
        }
        expect({ ...gray, block: undefined }).toEqual({ ...split, block: undefined })
      }),
      { numRuns: 2000, seed },
    )
    expect(compared).toBeGreaterThan(1000)
  })

  it('count blanks as the pattern gray-matter runs does, so long blank runs are kept from it', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code)
      if (blankLineSteps(char) !== (/\s/.test(char) ? 1 : 0)) expect.fail(`U+${code.toString(16)}`)
    }
    expect(blankLineSteps('\n'.repeat(4))).toBe(4 + 3 + 2 + 1 + 0)
    expect(blankLineSteps('id: 1\n  \nx')).toBe(3)
  })
})
