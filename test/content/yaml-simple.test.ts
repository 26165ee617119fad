import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { readYamlBlock } from '../../src/content/files/yaml-data.ts'
import { readSimpleYaml } from '../../src/content/files/yaml-simple.ts'
import { block } from './yaml-blocks.ts'

// FC_SEED=<n> replays a failure (fast-check prints the seed and path in its message).
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

/** What js-yaml and copyData make of a block, or the error they throw. */
function slowly(text: string): { data?: unknown; keys?: string[]; error?: string } {
  try {
    const data = readYamlBlock(text)
    return { data, keys: Object.keys(data) }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

describe('the simple front-matter reader', () => {
  it('reads a block as js-yaml reads it whenever it reads it at all, keys in the same order', () => {
    let read = 0
    fc.assert(
      fc.property(block, (text) => {
        const simple = readSimpleYaml(text)?.data
        if (simple === undefined) return
        read++
        expect({ data: simple, keys: Object.keys(simple) }).toEqual(slowly(text))
      }),
      { numRuns: 3000, seed },
    )
    expect(read).toBeGreaterThan(200)
  })

  it('reads the common fields of an event itself, typed as js-yaml types them', () => {
    const text = '\nid: 12\nzip: 01234\ncost: S$95 # in dollars\ntags: [3, 7]\nexcerpt: "A: b"\nfeatured: false\n'
    expect(readSimpleYaml(text)?.data).toEqual({
      id: 12,
      zip: 668,
      cost: 'S$95',
      tags: [3, 7],
      excerpt: 'A: b',
      featured: false,
    })
  })

  it.each([
    ['a nested mapping', '\nvenue:\n  name: Hall\n'],
    ['a duplicate key', '\nid: 1\nid: 2\n'],
    ['a forbidden key', '\n__proto__: 1\n'],
    ['an escape', '\ntitle: "a\\u0041"\n'],
    ['a value that is a mapping', '\ntitle: a: b\n'],
    ['an alias', '\nid: &a 1\nother: *a\n'],
    ['no key at all', '\n# only a comment\n'],
  ])('leaves %s to js-yaml', (_, text) => {
    expect(readSimpleYaml(text)).toBeUndefined()
  })
})

/** Every record file of a tree, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : name.endsWith('.md') ? [path] : []
  })
}

function outcome(text: string): unknown {
  try {
    return parseFrontMatter(text)
  } catch (error) {
    return { error: (error as Error).message, line: (error as { line?: number }).line }
  }
}

describe('reading whole files', () => {
  // A `---yaml` fence never takes the simple way, and means the same as a bare `---`.
  const asBefore = (text: string) => outcome(text.replace(/^---(?=\r?\n)/, '---yaml'))

  it('gives every file of the demo and test trees what gray-matter and js-yaml give', () => {
    const files = [...filesUnder('content'), ...filesUnder('test/fixtures')]
    const fenced = files.map((path) => readFileSync(path, 'utf8')).filter((text) => /^---\r?\n/.test(text))
    expect(fenced.length).toBeGreaterThan(50)
    for (const text of fenced) expect(outcome(text)).toEqual(asBefore(text))
  })

  it('gives generated files what gray-matter and js-yaml give: data, body and numbers as written', () => {
    const body = fc.constantFrom('', 'Body.', '\nBody\n\n', '# Title\r\n\r\ntext  ', '---\nmore', '- item\n')
    const file = fc.tuple(block, body).map(([text, rest]) => `---${text}\n---\n${rest}`)
    fc.assert(
      fc.property(file, (text) => {
        expect(outcome(text)).toEqual(asBefore(text))
      }),
      { numRuns: 1000, seed },
    )
  })
})
