// README: values are kept as written, `zip: 012345` is served as "012345". For front matter the fast reader declines,
// the text of each number was found by scanning lines: it read a line inside a quoted value as a key, and missed
// `zip : 012` and `zip:<tab>012` (found by a review).
import { expect, it } from 'vitest'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { normalize } from '../../src/content/files/normalize.ts'

const served = (text: string) => {
  const p = parseFrontMatter(text)
  return normalize(p.data, p.written)
}

it('serves zip as written when the line holding `zip: …` is inside a quoted value, not a key', () => {
  expect(served('---\ntitle: "Jazz and\nzip: 0123 and"\nzip: 012\n---\nB\n').zip).toBe('012')
})

it.each([
  ['a space before the colon', '---\nzip : 012\n---\n'],
  ['a tab after the colon', '---\nzip:\t012\n---\n'],
])('serves zip "012" as written with %s', (_, text) => {
  expect(served(text).zip).toBe('012')
})
