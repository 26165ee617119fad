import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Listening, listenHttp } from '../../src/cli/listen.ts'

// What Node's HTTP parser refuses never reaches a route; it is answered in the error envelope all the same.
let listening: Listening
beforeAll(async () => {
  listening = await listenHttp((_req, res) => res.end('ok'), { port: 0, host: '127.0.0.1', exact: false })
})
afterAll(() => listening.close())

/** Sends raw bytes and reads until the server closes the connection (5 s at most). */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(listening.port, '127.0.0.1')
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no close after ${Buffer.concat(chunks).toString()}`))
    }, 5_000)
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString())
    })
    socket.write(bytes)
  })
}

function envelope(answer: string) {
  const [head, body] = answer.split('\r\n\r\n')
  return { status: head!.split('\r\n')[0], headers: head!.toLowerCase(), body: JSON.parse(body!) }
}

describe('requests the HTTP parser refuses', () => {
  it('answers a method that is no HTTP method 400 in the envelope, and closes', async () => {
    const answer = envelope(await raw('FOO /wp-json/calendar/events/v1/events HTTP/1.1\r\nHost: x\r\n\r\n'))
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request')
    expect(answer.headers).toContain('content-type: application/json; charset=utf-8')
    expect(answer.headers).toContain('connection: close')
    expect(answer.body).toEqual({
      code: 'rest_bad_request',
      message: 'The request is not valid HTTP.',
      data: { status: 400 },
    })
  })

  it('answers headers past the limit 431 in the envelope', async () => {
    const answer = envelope(await raw(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`))
    expect(answer.status).toBe('HTTP/1.1 431 Request Header Fields Too Large')
    expect(answer.body).toEqual({
      code: 'rest_headers_too_large',
      message: 'The request headers are too large.',
      data: { status: 431 },
    })
  })

  it('answers a body framed twice (Content-Length and chunked) 400, and still serves the next connection', async () => {
    const smuggled = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'
    expect(envelope(await raw(smuggled)).body.code).toBe('rest_bad_request')
    expect(await raw('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1.1 200 OK[\s\S]*ok$/)
  })
})
