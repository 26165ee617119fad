import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { openUsers } from '../../src/auth/users.ts'
import { createStore, type Problem } from '../../src/content/store.ts'
import { SAMPLE_NOW, testApp } from '../helpers.ts'

/** Every file under a folder with its bytes (base64), keyed by relative path: a tree to compare byte for byte. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    out[relative(dir, path)] = (await readFile(path)).toString('base64')
  }
  return out
}

/**
 * A fresh store and app over a content folder, as a restart would load it, with the problems it found; `dir` holds
 * users.yaml. The store reads the clock the apps it is compared with read (`writableApp`, `testApp`): on the real
 * one, its open-ended series reached a month further than theirs from December 2026 on (the horizon moves monthly).
 */
export async function reloadApp(content: string, dir?: string) {
  const problems: Problem[] = []
  const store = await createStore(content, {
    defaultLanguage: 'en',
    fallback: true,
    onProblem: (problem) => problems.push(problem),
    now: () => SAMPLE_NOW,
  })
  const users = dir ? { users: openUsers(join(dir, 'users.yaml')) } : {}
  const app = testApp(store, users)
  return Object.assign(app, { problems, store })
}
