import { statSync } from 'node:fs'
import { CliError } from './errors.ts'

/**
 * The content folder a command works on must exist: a typo in `--content` (or in a CI recipe)
 * would otherwise serve, build or check an empty calendar and report success.
 */
export function requireContentFolder(dir: string): void {
  let isFolder = false
  try {
    isFolder = statSync(dir).isDirectory()
  } catch {
    // Missing, or unreadable: said below, the same way.
  }
  if (!isFolder) throw new CliError(`${dir}: no such content folder`)
}
