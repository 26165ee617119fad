import type { IncomingMessage, ServerResponse } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Listening, listenHttp } from '../../src/cli/listen.ts'

// What Node's HTTP parser refuses never reaches a route; it is answered in the error envelope all the same.
let listening: Listening
beforeAll(async () => {
  // As the routes do, the body is read whole before the answer.
  const handler = (req: IncomingMessage, res: ServerResponse) => req.resume().on('end', () => res.end('ok'))
  listening = await listenHttp(handler, { port: 0, host: '127.0.0.1', exact: false })
})
const clients: Socket[] = []
afterAll(async () => {
  for (const client of clients) client.destroy()
  await listening.close()
})

/**
 * Sends raw bytes (each part once the answer to the one before has begun) and reads until the server ends the
 * connection (5 s at most). The client keeps its own side open: the server must close it.
 */
function raw(...parts: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: listening.port, host: '127.0.0.1', allowHalfOpen: true })
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no close after ${Buffer.concat(chunks).toString()}`))
    }, 5_000)
    socket.on('data', (chunk) => {
      chunks.push(chunk)
      const next = parts.shift()
      if (next !== undefined) socket.write(next)
    })
    socket.on('error', () => {})
    // The server's end: the client's side stays open (allowHalfOpen), as a client that sent garbage may keep it.
    clients.push(socket)
    socket.on('end', () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString())
    })
    socket.write(parts.shift()!)
  })
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
const connections = () =>
  new Promise<number>((done, fail) =>
    listening.server.getConnections((error, count) => (error ? fail(error) : done(count))),
  )

function envelope(answer: string) {
  const [head, body] = answer.slice(answer.lastIndexOf('HTTP/1.1 ')).split('\r\n\r\n')
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
    // Closed on the server's side, though the client keeps its own open: it holds no connection.
    for (let waited = 0; (await connections()) > 0 && waited < 2_000; waited += 20) await sleep(20)
    expect(await connections()).toBe(0)
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

  it('answers a connection that served an answer before as a new one', async () => {
    const answer = await raw('GET / HTTP/1.1\r\nHost: x\r\n\r\n', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1.1 200 OK/)
    expect(envelope(answer).body.code).toBe('rest_bad_request')
  })

  it('answers chunk extensions past the limit 413', async () => {
    const chunked = `POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1;${'a'.repeat(20_000)}\r\nx\r\n0\r\n\r\n`
    const answer = envelope(await raw(chunked))
    expect(answer.status).toBe('HTTP/1.1 413 Payload Too Large')
    expect(answer.body.code).toBe('rest_payload_too_large')
  })
})
