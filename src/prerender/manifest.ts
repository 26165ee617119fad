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
 * a handful of entries, so each entry's line and the path order are kept until they change.
 */
export class Manifest extends Map<string, ManifestEntry> {
  #lines = new Map<string, string>()
  #order: string[] | undefined

  constructor(entries: Iterable<[string, ManifestEntry]> = []) {
    super()
    for (const [file, entry] of entries) this.set(file, entry)
  }

  override set(file: string, entry: ManifestEntry): this {
    if (!this.has(file)) this.#order = undefined
    if (this.get(file) !== entry) this.#lines.delete(file)
    return super.set(file, entry)
  }

  override delete(file: string): boolean {
    this.#order = undefined
    this.#lines.delete(file)
    return super.delete(file)
  }

  /** The manifest's text: `head`'s keys, then every file with its size and SHA-256, one line each, in path order. */
  text(head: Record<string, unknown>): string {
    this.#order ??= [...this.keys()].sort()
    const lines = this.#order.map((file) => {
      let line = this.#lines.get(file)
      if (line === undefined) {
        const entry = this.get(file)!
        this.#lines.set(
          file,
          (line = `  ${JSON.stringify(file)}: { "bytes": ${entry.bytes}, "sha256": "${entry.sha256}" }`),
        )
      }
      return line
    })
    const heading = Object.entries(head)
      .map(([key, value]) => ` ${JSON.stringify(key)}: ${JSON.stringify(value)},\n`)
      .join('')
    return `{\n${heading} "files": {\n${lines.join(',\n')}\n }\n}\n`
  }
}

/** The manifest a previous build left, if any: what need not be written again. */
export async function readManifest(out: string): Promise<Manifest> {
  try {
    const data = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as { files?: Record<string, ManifestEntry> }
    return new Manifest(Object.entries(data.files ?? {}))
  } catch {
    return new Manifest()
  }
}
