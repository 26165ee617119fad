import { opendirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { KINDS } from '../content/model/kinds.ts'
import { isRecordFileName } from '../content/files/paths.ts'
import { CliError } from './errors.ts'

/**
 * The content folder a command works on must exist: a typo in `--content` (or in a CI recipe)
 * would otherwise serve, build or check an empty calendar and report success.
 */
export function requireContentFolder(dir: string): void {
  const kind = kindOf(dir)
  if (kind === 'file') throw new CliError(`${dir} is a file, not a folder`)
  if (kind === 'none') throw new CliError(`${dir}: no such content folder`)
}

/**
 * A content folder without a single record file is most likely the wrong folder: said, not refused. Answers
 * whether it warned.
 */
export function warnIfEmpty(dir: string): boolean {
  const hasRecords = KINDS.some((kind) => holdsRecord(join(dir, kind)))
  if (!hasRecords)
    console.error(
      `almanac: warning: ${dir} holds no records (no .md file in ${KINDS.map((kind) => `${kind}/`).join(', ')})`,
    )
  return !hasRecords
}

/** The folder `preview` serves must exist; an empty one is said. */
export function requireBuiltFolder(dir: string): void {
  const kind = kindOf(dir)
  if (kind === 'file') throw new CliError(`${dir} is a file, not a folder`)
  if (kind === 'none') throw new CliError(`${dir}: no such folder; run almanac build first`)
  if (names(dir).length === 0) console.error(`almanac: warning: ${dir} is empty; run almanac build first`)
}

function kindOf(path: string): 'folder' | 'file' | 'none' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file'
  } catch {
    return 'none'
  }
}

/** Whether a folder holds a record file: read until the first one (listing 40,000 names took 60 ms of a start). */
function holdsRecord(dir: string): boolean {
  let folder: ReturnType<typeof opendirSync> | undefined
  try {
    folder = opendirSync(dir)
    for (let entry = folder.readSync(); entry; entry = folder.readSync()) if (isRecordFileName(entry.name)) return true
    return false
  } catch {
    return false
  } finally {
    folder?.closeSync()
  }
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
