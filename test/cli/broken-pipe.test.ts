import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { eventFile, tempTree } from '../content/trees.ts'
import { runCli, startCli, type Running } from './spawn.ts'

let tree: Awaited<ReturnType<typeof tempTree>>
let server: Running | undefined
beforeEach(async () => {
  tree = await tempTree()
  await writeFile(join(tree.content, 'events/one.en.md'), eventFile(10, 'One'))
})
afterEach(async () => {
  await server?.stop()
  await tree.cleanup()
})

/** CPU time the process used over `ms` of wall time, in ms (Linux /proc). */
async function cpuOver(pid: number, ms: number): Promise<number> {
  const ticks = async () => {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')
    return Number(fields[11]) + Number(fields[12])
  }
  const before = await ticks()
  await new Promise((done) => setTimeout(done, ms))
  return ((await ticks()) - before) * 10
}

describe.each([
  ['serve', [] as string[], /API: (http:\/\/\S+)/, '/events/10'],
  ['preview', ['--out', 'dist'], /(http:\/\/[\d.:]+)/, '/wp-json/calendar/events/v1/events/10'],
])('almanac %s whose output nobody reads any more', (command, args, address, path) => {
  it('keeps answering, stays idle and stops at the first SIGTERM', async () => {
    if (command === 'preview') expect((await runCli(['build', '--out', 'dist'], tree.dir)).code).toBe(0)
    server = startCli([command, ...args, '--port', '0', '--host', '127.0.0.1'], tree.dir)
    const api = (await server.waitFor(address, 30_000))[1]!.replace(/\/$/, '')
    // The reader goes away, as when `almanac serve | head -1` has its line.
    server.child.stdout!.destroy()
    server.child.stderr!.destroy()
    for (let i = 0; i < 3; i++) expect((await fetch(`${api}${path}`)).status).toBe(200)
    if (process.platform === 'linux') expect(await cpuOver(server.child.pid!, 1_000)).toBeLessThan(500)
    server.child.kill('SIGTERM')
    const code = await Promise.race([
      server.exit,
      new Promise((done) => setTimeout(() => done('still running'), 10_000)),
    ])
    expect(code).toBe(0)
  }, 60_000)
})
