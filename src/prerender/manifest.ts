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
 * a handful of entries, so each entry's line, the path order, and each block of lines as UTF-8 are kept
 * until they change (a 46,000-file manifest is not joined and encoded again line by line after every edit).
 */
export class Manifest extends Map<string, ManifestEntry> {
  #lines = new Map<string, string>()
  #order: string[] | undefined
  /** Each block of BLOCK files in path order: its index by file, and its joined lines, encoded, while none changes. */
  #blockOf = new Map<string, number>()
  #blocks: (Buffer | undefined)[] = []

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

  /**
   * The manifest's bytes: `head`'s keys, then every file with its size and SHA-256, one line each, in path order.
   * Each block is kept as UTF-8, so an edit encodes the blocks it changed, not the whole text.
   */
  bytes(head: Record<string, unknown>): Buffer {
    if (!this.#order) {
      this.#order = [...this.keys()].sort()
      this.#blockOf = new Map(this.#order.map((file, i) => [file, Math.floor(i / BLOCK)]))
      this.#blocks = []
    }
    const order = this.#order
    const heading = Object.entries(head)
      .map(([key, value]) => ` ${JSON.stringify(key)}: ${JSON.stringify(value)},\n`)
      .join('')
    const parts: Buffer[] = [Buffer.from(`{\n${heading} "files": {\n`)]
    for (let at = 0; at < order.length; at += BLOCK) {
      const block = at / BLOCK
      if (at > 0) parts.push(BETWEEN)
      parts.push(
        (this.#blocks[block] ??= Buffer.from(
          order
            .slice(at, at + BLOCK)
            .map((file) => this.#line(file))
            .join(',\n'),
        )),
      )
    }
    parts.push(END)
    return Buffer.concat(parts)
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
const BETWEEN = Buffer.from(',\n')
const END = Buffer.from('\n }\n}\n')

/** The manifest a previous build left, if any: what need not be written again. */
export async function readManifest(out: string): Promise<Manifest> {
  try {
    const data = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as { files?: Record<string, ManifestEntry> }
    return new Manifest(Object.entries(data.files ?? {}))
  } catch {
    return new Manifest()
  }
}
