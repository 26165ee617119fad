import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { KINDS } from '../content/kinds.ts'
import { CliError } from './errors.ts'

/**
 * The content folder a command works on must exist: a typo in `--content` (or in a CI recipe)
 * would otherwise serve, build or check an empty calendar and report success.
 */
export function requireContentFolder(dir: string): void {
  if (!isFolder(dir)) throw new CliError(`${dir}: no such content folder`)
}

/** A content folder without a single record file is most likely the wrong folder: said, not refused. */
export function warnIfEmpty(dir: string): void {
  const hasRecords = KINDS.some((kind) => names(join(dir, kind)).some((name) => name.endsWith('.md')))
  if (!hasRecords) console.error(`almanac: warning: ${dir} holds no records (no .md file in ${KINDS.map((kind) => `${kind}/`).join(', ')})`)
}

/** The folder `preview` serves must exist; an empty one is said. */
export function requireBuiltFolder(dir: string): void {
  if (!isFolder(dir)) throw new CliError(`${dir}: no such folder; run almanac build first`)
  if (names(dir).length === 0) console.error(`almanac: warning: ${dir} is empty; run almanac build first`)
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory()
  } catch {
    return false
  }
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
