import { EventEmitter } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { createFirstAnswer } from '../../src/cli/first-answer.ts'

// When serve starts its content watcher (src/cli/first-answer.ts): after the first answer, after a quiet spell
// with no request, or at the latest after a bound, so that a request that never ends cannot keep edits unseen.

const request = () => ({}) as IncomingMessage
const response = () => new EventEmitter() as unknown as ServerResponse
const within = (promise: Promise<void>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((done) => setTimeout(() => done(false), ms))])

describe('the moment the watcher may start', () => {
  it('is the first answer, however long the quiet spell', async () => {
    const first = createFirstAnswer()
    const res = response()
    first.wrap(() => {})(request(), res)
    const settled = first.settled(60_000, 60_000)
    expect(await within(settled, 50)).toBe(false)
    res.emit('close')
    expect(await within(settled, 50)).toBe(true)
  })

  it('is the end of a quiet spell when nobody asks anything', async () => {
    expect(await within(createFirstAnswer().settled(20, 60_000), 500)).toBe(true)
  })

  it('comes at the latest after its bound, while a request never ends', async () => {
    const first = createFirstAnswer()
    first.wrap(() => {})(request(), response())
    const settled = first.settled(10, 150)
    expect(await within(settled, 80)).toBe(false)
    expect(await within(settled, 500)).toBe(true)
  })

  it('leaves later requests alone once the first answer went out', () => {
    const first = createFirstAnswer()
    const handler = first.wrap(() => {})
    const res = response()
    handler(request(), res)
    res.emit('close')
    const later = response()
    handler(request(), later)
    expect((later as unknown as EventEmitter).listenerCount('close')).toBe(0)
  })
})
