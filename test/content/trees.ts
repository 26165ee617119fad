import { execFile } from 'node:child_process'
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { KINDS } from '../../src/content/model/kinds.ts'
import { afterEach } from 'vitest'
import { createStore, type Problem } from '../../src/content/store.ts'
import { watchContent } from '../../src/content/watch.ts'
import { FIXTURES } from '../helpers.ts'

const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')
const run = promisify(execFile)

/** A fixture's content copied into a fresh temporary folder (`dir/content`), removed by `cleanup`. */
export async function tempTree(fixture = 'reference') {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-hostile-'))
  await cp(join(FIXTURES, fixture, 'content'), join(dir, 'content'), { recursive: true })
  return { dir, content: join(dir, 'content'), cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** A store over a folder, collecting the problems it reports. */
export async function loadStore(content: string, assignIds = false) {
  const problems: Problem[] = []
  const store = await createStore(content, {
    defaultLanguage: 'en',
    fallback: true,
    assignIds,
    onProblem: (p) => problems.push(p),
  })
  return { store, problems }
}

/** Runs the real CLI in `cwd`; resolves with its exit code and output whatever the code. */
export async function almanac(args: string[], cwd: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, timeout: 30_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/** A valid event file. */
export function eventFile(id: number, title: string, extra = ''): string {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  return `---\nid: ${id}\ntitle: ${title}\nslug: ${slug}\nstatus: publish\nstart_date: 2026-12-20 18:00:00\nend_date: 2026-12-20 20:00:00\n${extra}---\nAbout ${title}.\n`
}

/** Polls until `check` passes, for at most `ms`: file events arrive when the system delivers them. */
export async function eventually(check: () => Promise<void> | void, ms = 5_000) {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
}

/** The record files of the reference tree, path → text (for a store over the in-memory driver). */
export async function referenceFiles(): Promise<Record<string, string>> {
  const content = join(FIXTURES, 'reference', 'content')
  const files: Record<string, string> = {}
  for (const kind of KINDS)
    for (const name of await readdir(join(content, kind)).catch(() => []))
      files[`${kind}/${name}`] = await readFile(join(content, kind, name), 'utf8')
  return files
}

/**
 * Temporary trees and watched stores over them for the tests of a file, each watch closed and each tree removed
 * after every test.
 */
export function useWatchedTrees() {
  const opened: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close()
  })
  return {
    async tree() {
      const tree = await tempTree()
      opened.push(tree.cleanup)
      return tree
    },
    /** A store over `folder` (its problems collected) with its watch, ready. */
    async watched(folder: string) {
      const loaded = await loadStore(folder)
      const watch = watchContent(loaded.store)
      opened.push(() => watch.close())
      await watch.ready
      return loaded
    },
  }
}
