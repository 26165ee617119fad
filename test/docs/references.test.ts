import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// Every reference in the repository points inside it: code comments, test names, README and the
// docs name sections of docs/*.md that exist, Markdown links lead to files that exist, and nothing
// sends the reader to the planning documents that lived beside the repository.

const ROOT = resolve(import.meta.dirname, '../..')
const SELF = relative(ROOT, import.meta.filename)
const TEXT = /\.(ts|mts|mjs|js|md|yaml|yml|json|headers)$/
/** Names of documents that were never part of the repository. */
const OUTSIDE = /\.\.\/shared|\bDESIGN(\.md|\s*§)|\bCONTRACT(\.md|\b)|\btec-v1\b|\bSTYLE\.md\b|\bINTERFACE\.md\b/
/** A section sign with a number, and what may stand in front of it. */
const SECTION = /§\s*(\d+)/g
/** `docs/compatibility.md §4`, or a list: `docs/compatibility.md §3, §6` (the number checked is the last). */
const DOC_SECTION = /(docs\/[\w-]+\.md) §\d+(?:(?:, | and )§\d+)*$/
/** The numbered decisions of the old wire contract (D1 to D20), as comments cited them. */
const DECISION = /\bD([1-9]|1\d|20)\b/

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => TEXT.test(path) && statSync(path).isFile())
}

const FILES = [
  ...['src', 'test', 'scripts', 'bin', 'docs'].flatMap((dir) => filesUnder(join(ROOT, dir))),
  join(ROOT, 'README.md'),
]
  .map((path) => relative(ROOT, path))
  .filter((path) => path !== SELF)

/** `## 7. Title` headings of a document, as section numbers. */
function sectionsOf(doc: string): Set<number> {
  const path = join(ROOT, doc)
  if (!existsSync(path)) return new Set()
  return new Set([...readFileSync(path, 'utf8').matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1])))
}

/** Every line of every scanned file, with where it is. */
function* lines(): Generator<{ where: string; line: string; path: string }> {
  for (const path of FILES) {
    const text = readFileSync(join(ROOT, path), 'utf8')
    for (const [index, line] of text.split('\n').entries()) yield { where: `${path}:${index + 1}`, line, path }
  }
}

describe('references to documents', () => {
  it('scans the code, the tests, the scripts, README and the docs', () => {
    expect(FILES).toContain('README.md')
    expect(FILES).toContain('docs/compatibility.md')
    expect(FILES).toContain('docs/architecture.md')
    expect(FILES.filter((path) => path.startsWith('src/')).length).toBeGreaterThan(50)
  })

  it('never sends the reader to a document outside the repository', () => {
    const found = [...lines()]
      .filter(({ line }) => OUTSIDE.test(line))
      .map(({ where, line }) => `${where}: ${line.trim()}`)
    expect(found).toEqual([])
  })

  it('cites no numbered decision of the old contract (D1 to D20) in code or tests', () => {
    const code = [...lines()].filter(
      ({ path }) => /\.(ts|mts|mjs|js)$/.test(path) && !path.startsWith('test/fixtures/'),
    )
    const found = code.filter(({ line }) => DECISION.test(line)).map(({ where, line }) => `${where}: ${line.trim()}`)
    expect(found).toEqual([])
  })

  it('names, for every section number, a document of the repository that has that section', () => {
    const sections = new Map<string, Set<number>>()
    const broken: string[] = []
    for (const { where, line } of lines()) {
      for (const match of line.matchAll(SECTION)) {
        const cited = DOC_SECTION.exec(line.slice(0, match.index + match[0].length))
        if (!cited) {
          broken.push(`${where}: "${match[0]}" names no document (write docs/<file>.md §N)`)
          continue
        }
        const [, doc] = cited
        const number = match[1]
        if (!sections.has(doc!)) sections.set(doc!, sectionsOf(doc!))
        if (!sections.get(doc!)!.has(Number(number))) broken.push(`${where}: ${doc} has no section ${number}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('links, in README and the docs, only to files that exist', () => {
    const broken: string[] = []
    for (const { where, line, path } of lines()) {
      if (!path.endsWith('.md') || path.startsWith('test/')) continue
      for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!.split('#')[0]!
        if (target === '' || /^[a-z]+:/i.test(target)) continue
        if (!existsSync(resolve(ROOT, dirname(path), target))) broken.push(`${where}: ${match[1]}`)
      }
    }
    expect(broken).toEqual([])
  })
  it('names, in README and the docs, only source paths that exist (a file moved is a line to change)', () => {
    const gone: string[] = []
    for (const { where, line, path } of lines()) {
      if (!path.endsWith('.md') || path.startsWith('test/')) continue
      for (const match of line.matchAll(/`((?:src|test|scripts|bin|docs)\/[\w./-]+)`/g))
        if (!existsSync(join(ROOT, match[1]!))) gone.push(`${where}: ${match[1]}`)
    }
    expect(gone).toEqual([])
  })
})
