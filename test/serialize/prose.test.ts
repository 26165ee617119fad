import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { plainText, tokensText } from '../../src/serialize/feed/plain-text.ts'
import { createFullMarkdownIt, createMarkdownIt } from '../../src/serialize/markdown-it.ts'
import { proseHtml, readProse } from '../../src/serialize/prose.ts'

// FC_SEED=<n> replays a failure (fast-check prints the seed and path in its message).
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

const full = createFullMarkdownIt()

// Prose in the four languages, and everything near it that is Markdown syntax or that linkify reads as a link.
const words = [
  'Bring',
  'a',
  'mat',
  'Selamat',
  'datang',
  '请自备坐垫',
  '座位先到先得',
  'வடக்கு',
  'நுழைவாயிலில்',
  '95',
  '2027',
  'x',
]
const prose = [
  ' ',
  ' ',
  ' ',
  '\n',
  '\n\n',
  '\n\n\n',
  ', ',
  '. ',
  '.',
  '; ',
  "'",
  '"',
  '?',
  '!',
  '(',
  ')',
  '-',
  '，',
  '。',
  '：',
  '「',
  '…',
]
const marks = ['*', '**', '_', '__', '***', ' *', '* ', '_ ', ' _', '\n*', '\n**']
const links = [
  '[heritage trail](https://example.org/trail)',
  '[a](http://x.y/z_w)',
  '[文化遗产步道](https://example.org/trail)',
  '[a](javascript:x)',
  '[a](https://Example.org)',
  '[a](https://ex%41.org)',
  '[ a ](https://a.b)',
  '![a](https://a.b)',
  '[a]( https://a.b)',
  '[a](https://a.b "t")',
  '[a**b**](https://a.b)',
  '[a](<https://a.b>)',
  '[a]: https://a.b',
  '[a](https://a.b/(c))',
  '[x]',
  `[a](https://${'a.'.repeat(128)}a)`,
  '[a](https://xn--fo-hia.org/~a)',
  '[a](https://a..b)',
  '[a](https://a.b/c?d=e#f)',
  '[a](https://b.c/%20)',
]
const syntax = [
  '[',
  ']',
  '<',
  '>',
  '&',
  '\\',
  '`',
  '~',
  '|',
  '#',
  '=',
  '+',
  '@',
  ':',
  '/',
  '\t',
  '\r',
  '  \n',
  ' \n',
  '\n ',
  '\n    ',
  '1. ',
  '2) ',
  '\n3.',
  '\n- ',
  '- ',
  '---',
  '\n===',
  'www',
  'WWW.',
  'localhost',
  '.com',
  'example.sg',
  '3.5',
  '...',
  '..',
  'a.b',
  '.\n',
  '  ',
  '\u00a0',
  '\u2028',
  '😀',
  '&amp;',
  'http://x.org',
  'foo@bar.sg',
  '![a](b)',
  '<b>',
  '\0',
  '1.2.3.4',
]
const text = fc
  .array(
    fc.oneof(
      { arbitrary: fc.constantFrom(...words), weight: 6 },
      { arbitrary: fc.constantFrom(...prose), weight: 4 },
      { arbitrary: fc.constantFrom(...marks), weight: 2 },
      { arbitrary: fc.constantFrom(...links), weight: 1 },
      { arbitrary: fc.constantFrom(...syntax), weight: 1 },
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''))

// Emphasis: runs of marks around a few characters, with every kind of neighbour on either side of each run.
const near = fc.constantFrom(
  'a',
  'bc',
  'あ',
  '𠀀',
  'ே',
  '1',
  ' ',
  '\n',
  ',',
  '.',
  '(',
  ')',
  '"',
  "'",
  '-',
  '!',
  '，',
  '。',
  '「',
  '」',
  '…',
  '*',
  '_',
)
const mark = fc.constantFrom('*', '**', '_', '__')
const span = fc
  .tuple(mark, fc.array(near, { minLength: 1, maxLength: 4 }), mark, fc.boolean())
  .map(([open, inner, close, same]) => `${open}${inner.join('')}${same ? open : close}`)
const emphasis = fc
  .array(
    fc.oneof(
      { arbitrary: near, weight: 4 },
      { arbitrary: span, weight: 2 },
      { arbitrary: fc.constantFrom(...links), weight: 1 },
    ),
    {
      maxLength: 30,
    },
  )
  .map((parts) => parts.join(''))

/** Runs `property` over `texts`; whenever the text is prose, markdown-it must make the same HTML and plain text. */
function sameAsMarkdownIt(
  texts: fc.Arbitrary<string>,
  numRuns: number,
): { taken: number; emphasis: number; links: number } {
  const seen = { taken: 0, emphasis: 0, links: 0 }
  fc.assert(
    fc.property(texts, (markdown) => {
      const paragraphs = readProse(markdown)
      if (paragraphs === undefined) return
      const pieces = paragraphs.flat().filter((piece) => typeof piece !== 'string')
      seen.taken++
      if (pieces.some((piece) => 'strong' in piece)) seen.emphasis++
      if (pieces.some((piece) => 'href' in piece)) seen.links++
      expect(proseHtml(markdown)).toBe(full(markdown))
      expect(plainText(markdown)).toBe(tokensText(markdown))
    }),
    { numRuns, seed },
  )
  return seen
}

describe('prose without markdown-it', () => {
  it('makes the HTML and the plain text markdown-it makes, whenever it takes a text at all', () => {
    const seen = sameAsMarkdownIt(text, 5000)
    // The property is empty unless many texts are prose, some with links (over 25 seeds: 1,593-1,725 taken, 42-78
    // with links).
    expect(seen.taken).toBeGreaterThan(500)
    expect(seen.links).toBeGreaterThan(20)
  })

  it('reads emphasis as markdown-it does, whatever is on either side of its marks', () => {
    const seen = sameAsMarkdownIt(emphasis, 5000)
    // Over 25 seeds: 222-262 texts with emphasis.
    expect(seen.emphasis).toBeGreaterThan(150)
  })

  it.each([
    [
      'English',
      'Bring a mat and a friend; seating is first come, first served.\n\nPhotography is welcome (no flash!).',
    ],
    ['Malay', 'Bawa tikar dan rakan anda; tempat duduk adalah "siapa cepat, dia dapat".'],
    ['Chinese', '请自备坐垫并邀请朋友同行，座位先到先得。 北门设有无障碍通道。\n\n欢迎拍照，但演出期间请关闭闪光灯。'],
    [
      'emphasis and a link',
      'Join us for **live music**, _special guests_ and a [heritage trail](https://example.org/trail).',
    ],
    ['Chinese emphasis', '欢迎参加水边的**现场音乐**之夜，节目由来自区域各地的_特别嘉宾_共同呈现。'],
    ['Tamil', 'வடக்கு நுழைவாயிலில் சக்கர நாற்காலி அணுகல் உண்டு; தன்னார்வலர்கள் உதவுவார்கள்.'],
  ])('takes %s prose, as markdown-it renders it', (_, markdown) => {
    expect(readProse(markdown)).toBeDefined()
    expect(createMarkdownIt()(markdown)).toBe(full(markdown))
    expect(plainText(markdown)).toBe(tokensText(markdown))
  })

  it.each([
    ['a host name', 'Tickets at example.sg today'],
    ['an ordered list', 'Bring:\n\n1. a mat\n2. a friend'],
    ['a hard break', 'first line  \nsecond line'],
    ['nested emphasis', 'a **very *good* night**'],
    ['emphasis left open', 'a *very good night'],
    ['an address', 'write to info@example.org'],
    ['indented code', 'intro\n\n    code'],
    ['a link to a host markdown-it drops (over 255 characters)', `See [x](https://${'a.'.repeat(128)}a).`],
  ])('leaves %s to markdown-it', (_, markdown) => {
    expect(readProse(markdown)).toBeUndefined()
  })
})
