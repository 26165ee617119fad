import { describe, expect, it } from 'vitest'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { FrontMatterError } from '../../src/content/files/yaml-data.ts'

/** The problem a file's broken front matter is reported as. */
function problemOf(block: string): { line: number; message: string } {
  try {
    parseFrontMatter(`---\n${block}\n---\nBody.\n`)
  } catch (error) {
    if (error instanceof FrontMatterError) return { line: error.line, message: error.message }
    throw error
  }
  throw new Error('the front matter was read')
}

describe('front matter that is not valid YAML', () => {
  it.each([
    [
      'a value with ": " in it',
      'title: Jazz: Live\nslug: jazz',
      /^not valid YAML: a value that holds ": " must be quoted \(for example title: "Jazz: Live"\) \(column \d+\)$/,
    ],
    [
      'a key written twice',
      'title: A\nslug: a\ntitle: B',
      /^not valid YAML: key "title" is written twice; keep one \(column 1\)$/,
    ],
    [
      'a list never closed',
      'title: A\ntags: [1, 2',
      /^not valid YAML: a list or mapping opened with \[ or \{ is never closed/,
    ],
    ['a quote never closed', 'title: "A\nslug: a', /^not valid YAML: a quoted value is never closed/],
    [
      'a key without its colon',
      'title: A\nslug b\nstatus: publish',
      /^not valid YAML: a line above has no ": " between its key and its value/,
    ],
    [
      'a line indented under a value',
      'title: A\n  slug: b',
      /^not valid YAML: this line is not indented like the keys or items around it/,
    ],
  ])('says %s in plain words, on one line', (_name, block, expected) => {
    const { message } = problemOf(block)
    expect(message).toMatch(expected)
    expect(message).not.toContain('\n')
  })

  it("keeps js-yaml's own reason, on one line, for a mistake it has no plain words for", () => {
    const { message } = problemOf('title: A\n? [a\n')
    expect(message).toMatch(/^not valid YAML: \S/)
    expect(message).not.toContain('\n')
  })
})
