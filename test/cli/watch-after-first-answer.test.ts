import { writeFileSync } from 'node:fs'
import { connect, createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { eventFile, eventually, tempTree } from '../content/trees.ts'
import { startCli } from './spawn.ts'

let tree: Awaited<ReturnType<typeof tempTree>>
beforeEach(async () => {
  tree = await tempTree()
})
afterEach(async () => {
  await tree.cleanup()
})

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => done(port))
    })
  })
}

/** Resolves once something accepts connections on the port (no request is sent). */
async function accepting(port: number): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    const ok = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1', () => done(!!socket.end()))
      socket.on('error', () => done(false))
    })
    if (ok) return
    await new Promise((wait) => setTimeout(wait, 50))
  }
  throw new Error(`nothing listens on ${port}`)
}

describe('almanac serve starts watching after its first answer', () => {
  it('serves edits made between listening and watching once it says it is ready', async () => {
    const port = await freePort()
    const server = startCli(['serve', '--port', String(port), '--host', '127.0.0.1', '--quiet'], tree.dir)
    try {
      await accepting(port)
      // Listening, loaded, not watching yet: the watcher waits for the first answer.
      writeFileSync(join(tree.content, 'events/plain-meetup.en.md'), eventFile(8, 'Plain Meetop'))
      writeFileSync(join(tree.content, 'events/fresh.en.md'), eventFile(900, 'Fresh'))
      const api = `http://127.0.0.1:${port}/wp-json/calendar/events/v1`
      expect((await fetch(`${api}/events`)).status).toBe(200)
      await server.waitFor(/Almanac is serving/)
      const title = async (id: number) =>
        ((await (await fetch(`${api}/events/${id}`)).json()) as { title?: string }).title
      await eventually(async () => {
        expect(await title(8)).toBe('Plain Meetop')
        expect(await title(900)).toBe('Fresh')
      }, 10_000)
    } finally {
      await server.stop()
    }
  }, 60_000)
})
