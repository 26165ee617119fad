import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { eventFile, eventually, tempTree } from '../content/trees.ts'

const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')
const BULK = 2_000

let tree: Awaited<ReturnType<typeof tempTree>>
beforeEach(async () => {
  tree = await tempTree()
  for (let i = 0; i < BULK; i++)
    await writeFile(join(tree.content, `events/bulk-${i}.en.md`), eventFile(1000 + i, `Bulk ${i}`))
})
afterEach(async () => {
  await tree.cleanup()
})

describe('almanac serve on a big tree', () => {
  it('serves edits made on disk the moment it says it is ready', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      cwd: tree.dir,
      env: { ...process.env, ALMANAC_PORT: '' },
      stdio: 'pipe',
    })
    const exited = new Promise((done) => child.on('exit', done))
    try {
      let output = ''
      const api = await new Promise<string>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no URL within 30 s:\n${output}`)), 30_000)
        const read = (chunk: Buffer) => {
          output += chunk.toString()
          const url = /API: (http:\/\/\S+)/.exec(output)?.[1]
          if (!url) return
          clearTimeout(timer)
          // At once, as an editor or a script would, while the watcher may still be starting.
          writeFileSync(join(tree.content, 'events/plain-meetup.en.md'), eventFile(8, 'Plain Meetop'))
          writeFileSync(join(tree.content, 'events/bulk-7.en.md'), eventFile(1007, 'Bulk X'))
          writeFileSync(join(tree.content, 'events/fresh.en.md'), eventFile(900, 'Fresh'))
          done(url)
        }
        child.stdout.on('data', read)
        child.stderr.on('data', read)
      })
      const title = async (id: number) =>
        (
          (await (await fetch(`${api}/events/${id}`, { signal: AbortSignal.timeout(5_000) })).json()) as {
            title?: string
          }
        ).title
      await eventually(async () => {
        expect(await title(8)).toBe('Plain Meetop')
        expect(await title(1007)).toBe('Bulk X')
        expect(await title(900)).toBe('Fresh')
      }, 10_000)
    } finally {
      child.kill('SIGTERM')
      await exited
    }
  }, 60_000)
})
