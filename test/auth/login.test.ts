import { performance } from 'node:perf_hooks'
import { rm } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hashPassword } from '../../src/auth/passwords.ts'
import { as, call, writableApp } from '../helpers.ts'

let app: Awaited<ReturnType<typeof writableApp>>
beforeEach(async () => {
  app = await writableApp('reference')
})
afterEach(async () => {
  await rm(app.dir, { recursive: true, force: true })
})

const basic = (login: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
})
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function timed(headers: Record<string, string>): Promise<number> {
  const started = performance.now()
  const response = await call(app, 'events/7', { headers })
  expect(response.status).toBe(401)
  return performance.now() - started
}

describe('checking application passwords', () => {
  it('keeps the event loop free while wrong passwords are being checked', async () => {
    const hashStarted = performance.now()
    hashPassword('one-hash-to-measure-the-machine')
    const oneHash = performance.now() - hashStarted
    const before = performance.eventLoopUtilization()
    let turned = false
    setTimeout(() => (turned = true), 0)
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call(app, 'events/7', { headers: basic('admin', `wrong-password-${i}`) })),
    )
    const { active } = performance.eventLoopUtilization(before)
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(401))
    // Hashing on the event loop runs the six checks back to back, before any timer can fire,
    // and keeps the loop busy for six hashes; off the loop it waits, idle, for the thread pool.
    expect(turned).toBe(true)
    expect(active, `one hash takes ${Math.round(oneHash)} ms`).toBeLessThan(3 * oneHash)
  })

  it('answers an unknown login about as slowly as a wrong password for a known one', async () => {
    const known: number[] = []
    const unknown: number[] = []
    for (let i = 0; i < 4; i++) {
      known.push(await timed(basic('editor', `wrong-password-${i}`)))
      unknown.push(await timed(basic(`ghost${i}`, `wrong-password-${i}`)))
    }
    // Timing is what the issue is about: unknown logins answered 35× faster than known ones.
    const ratio = median(unknown) / median(known)
    expect(ratio, `unknown ${unknown.map(Math.round)} ms, known ${known.map(Math.round)} ms`).toBeGreaterThan(0.4)
    expect(ratio).toBeLessThan(2.5)
  })

  it('logs in with the right password, again and again (the remembered check)', async () => {
    for (let i = 0; i < 3; i++) expect((await call(app, 'events/7', { headers: as('admin') })).status).toBe(200)
  })
})

describe('repeated failures', () => {
  it('answers 429 with Retry-After once a login has failed too often, even with its right password', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 11; i++)
      statuses.push((await call(app, 'events/7', { headers: as('author', `wrong-password-${i}`) })).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses[10]).toBe(429)
    const locked = await call(app, 'events/7', { headers: as('author') })
    expect(locked.status).toBe(429)
    expect(locked.body.code).toBe('too_many_login_attempts')
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    // Other users are not locked out by it.
    expect((await call(app, 'events/7', { headers: as('editor') })).status).toBe(200)
  })

  it('keeps credentials that were checked before working while their login is locked', async () => {
    expect((await call(app, 'events/7', { headers: as('contributor') })).status).toBe(200)
    for (let i = 0; i < 12; i++) await call(app, 'events/7', { headers: as('contributor', `wrong-password-${i}`) })
    expect((await call(app, 'events/7', { headers: as('contributor', 'wrong-password-x') })).status).toBe(429)
    expect((await call(app, 'events/7', { headers: as('contributor') })).status).toBe(200)
  })
})
