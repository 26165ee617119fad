// Whether lib/ (src/ compiled to JavaScript by scripts/compile.mjs) may be run instead of src/:
// only when it was compiled from exactly the source files there are now, so a developer who edits
// src/ never runs stale code. The check reads and hashes every file of src/ (a few milliseconds).
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The file in lib/ that names the source it was compiled from. */
export const STAMP_FILE = '.source-hash'

/** One hash over every file of `src` (its path and bytes), in a fixed order. */
export function sourceHash(src) {
  const hash = createHash('sha256')
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(src.length + 1))
    .sort()
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(src, file)))
      .update('\0')
  return hash.digest('hex')
}

/** Whether `lib` holds the compilation of `src` as it is now. Never throws: anything missing is "no". */
export function compiledIsCurrent(src, lib) {
  try {
    return readFileSync(join(lib, STAMP_FILE), 'utf8').trim() === sourceHash(src)
  } catch {
    return false
  }
}
