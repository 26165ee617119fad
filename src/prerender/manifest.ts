import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

// The manifest of a build's output: every file with its size and SHA-256 (docs/architecture.md §7).

/** What the manifest says of a file. */
export interface ManifestEntry {
  bytes: number
  sha256: string
}

export const MANIFEST = 'manifest.json'

/**
 * What is in the output folder, file by file. An update rewrites the manifest whole after changing
 * a handful of entries, so each entry's line, the path order, and the text of each block of lines are
 * kept until they change (a 46,000-file manifest is not joined again line by line after every edit).
 */
export class Manifest extends Map<string, ManifestEntry> {
  #lines = new Map<string, string>()
  #order: string[] | undefined
  /** Each block of BLOCK files in path order: its index by file, and its joined lines while none changes. */
  #blockOf = new Map<string, number>()
  #blocks: (string | undefined)[] = []

  constructor(entries: Iterable<[string, ManifestEntry]> = []) {
    super()
    for (const [file, entry] of entries) this.set(file, entry)
  }

  override set(file: string, entry: ManifestEntry): this {
    if (!this.has(file)) this.#order = undefined
    if (this.get(file) !== entry) this.#forget(file)
    return super.set(file, entry)
  }

  override delete(file: string): boolean {
    this.#order = undefined
    this.#forget(file)
    return super.delete(file)
  }

  #forget(file: string): void {
    this.#lines.delete(file)
    const block = this.#blockOf.get(file)
    if (block !== undefined) this.#blocks[block] = undefined
  }

  /** The manifest's text: `head`'s keys, then every file with its size and SHA-256, one line each, in path order. */
  text(head: Record<string, unknown>): string {
    if (!this.#order) {
      this.#order = [...this.keys()].sort()
      this.#blockOf = new Map(this.#order.map((file, i) => [file, Math.floor(i / BLOCK)]))
      this.#blocks = []
    }
    const order = this.#order
    const blocks: string[] = []
    for (let at = 0; at < order.length; at += BLOCK) {
      const block = at / BLOCK
      this.#blocks[block] ??= order
        .slice(at, at + BLOCK)
        .map((file) => this.#line(file))
        .join(',\n')
      blocks.push(this.#blocks[block])
    }
    const heading = Object.entries(head)
      .map(([key, value]) => ` ${JSON.stringify(key)}: ${JSON.stringify(value)},\n`)
      .join('')
    return `{\n${heading} "files": {\n${blocks.join(',\n')}\n }\n}\n`
  }

  #line(file: string): string {
    let line = this.#lines.get(file)
    if (line === undefined) {
      const entry = this.get(file)!
      this.#lines.set(
        file,
        (line = `  ${JSON.stringify(file)}: { "bytes": ${entry.bytes}, "sha256": "${entry.sha256}" }`),
      )
    }
    return line
  }
}

/** Files per block of the manifest's text. */
const BLOCK = 512

/** The manifest a previous build left, if any: what need not be written again. */
export async function readManifest(out: string): Promise<Manifest> {
  try {
    const data = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as { files?: Record<string, ManifestEntry> }
    return new Manifest(Object.entries(data.files ?? {}))
  } catch {
    return new Manifest()
  }
}
