import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ContentDriver } from '../../src/content/store/driver.ts'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'
import { FIXTURES } from '../helpers.ts'

// The drivers the store's tests run over (docs/architecture.md §5): a fixture's content tree on disk,
// or the same files in the memory driver. Media stay on disk: the memory driver holds none.

/** A fixture's tree behind one driver, for tests that write to it. */
export interface OpenTree {
  /** What createStore takes: a folder or a driver. */
  source: string | ContentDriver
  /** A file's text as stored now, null when there is none. */
  read(path: string): Promise<string | null>
  /** The names stored under a folder, temporary files included. */
  stored(folder: string): Promise<string[]>
  close(): Promise<void>
}

export type DriverName = 'disk' | 'memory'
export const DRIVERS: DriverName[] = ['disk', 'memory']

/** The files of a fixture's content tree but its media, path → text. */
async function fixtureFiles(fixture: string): Promise<Record<string, string>> {
  const root = join(FIXTURES, fixture, 'content')
  const files: Record<string, string> = {}
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name).slice(root.length + 1)
    if (entry.isFile() && !path.startsWith('media/')) files[path] = await readFile(join(root, path), 'utf8')
  }
  return files
}

/** A fixture's tree to read from: the fixture folder itself, or a memory driver holding its files. */
export async function readTree(driver: DriverName, fixture: string): Promise<string | ContentDriver> {
  return driver === 'disk' ? join(FIXTURES, fixture, 'content') : createMemoryDriver(await fixtureFiles(fixture))
}

/** A fixture's tree to write to: a copy on disk (removed on close), or a memory driver holding its files. */
export async function writableTree(driver: DriverName, fixture: string): Promise<OpenTree> {
  if (driver === 'memory') {
    const memory = createMemoryDriver(await fixtureFiles(fixture))
    return {
      source: memory,
      read: async (path) => memory.peek(path),
      stored: async (folder) =>
        [...memory.files.keys()]
          .filter((p) => p.startsWith(`${folder}/`))
          .map((p) => p.slice(folder.length + 1))
          .sort(),
      close: async () => {},
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'almanac-store-'))
  await cp(join(FIXTURES, fixture, 'content'), dir, { recursive: true })
  return {
    source: dir,
    read: (path) => readFile(join(dir, path), 'utf8').catch(() => null),
    stored: (folder) => readdir(join(dir, folder)).then((names) => names.sort()),
    close: () => rm(dir, { recursive: true, force: true }),
  }
}
