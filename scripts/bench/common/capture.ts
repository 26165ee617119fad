// Almanac's answers captured whole (status, raw headers, body) on a keep-alive connection, as a load test sees
// them, and kept in a replay book on disk: a manifest and one file of bodies, which the limit (replay.ts) serves.
import { closeSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs'
import { Agent, request } from 'node:http'

/** One answer as Almanac sent it. `headers` is the flat raw list (name, value, name, value …). */
export interface Captured {
  status: number
  headers: string[]
  body: Buffer
}

/** A path's answer in the book: where its body lies in the bodies file. */
export interface ReplayEntry {
  path: string
  status: number
  headers: string[]
  offset: number
  length: number
}

/** What replay.ts reads: the entries and the file their bodies are in. */
export interface ReplayManifest {
  bodyFile: string
  entries: ReplayEntry[]
}

/** Hop-by-hop headers: node:http writes them itself for a keep-alive answer, the same as Almanac's server did. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding'])
const agent = new Agent({ keepAlive: true, maxSockets: 8 })

/**
 * GETs `url` on a keep-alive connection and keeps the whole answer; a failed request is status 0. A pooled socket
 * the server closed after its keep-alive timeout (a slow start on a loaded machine) fails at once: that one is
 * asked again, on a new socket.
 */
export async function capture(url: string, timeoutMs = 30_000): Promise<Captured> {
  const first = await captureOnce(url, timeoutMs)
  return first.status === 0 ? captureOnce(url, timeoutMs) : first
}

function captureOnce(url: string, timeoutMs: number): Promise<Captured> {
  return new Promise((resolve) => {
    const failed = () => resolve({ status: 0, headers: [], body: Buffer.alloc(0) })
    const req = request(url, { agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.rawHeaders, body: Buffer.concat(chunks) }),
      )
      res.on('error', failed)
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', failed)
    req.end()
  })
}

/** The end-to-end headers of an answer, without Date when `withDate` is false (it differs second to second). */
export function endToEnd(headers: string[], withDate = true): string[] {
  const out: string[] = []
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!.toLowerCase()
    if (HOP.has(name) || (!withDate && name === 'date')) continue
    out.push(headers[i]!, headers[i + 1]!)
  }
  return out
}

/** Answers appended to a bodies file as they are captured, so thousands of them never sit in memory at once. */
export class ReplayBook {
  readonly entries: ReplayEntry[] = []
  private readonly fd: number
  private offset = 0

  constructor(readonly file: string) {
    this.fd = openSync(`${file}.bodies`, 'w')
  }

  add(path: string, answer: Captured): void {
    writeSync(this.fd, answer.body)
    const headers = endToEnd(answer.headers)
    this.entries.push({ path, status: answer.status, headers, offset: this.offset, length: answer.body.length })
    this.offset += answer.body.length
  }

  /** The body of entry `i`, read back from the file. */
  body(i: number): Buffer {
    const entry = this.entries[i]!
    const out = Buffer.alloc(entry.length)
    const fd = openSync(`${this.file}.bodies`, 'r')
    readSync(fd, out, 0, entry.length, entry.offset)
    closeSync(fd)
    return out
  }

  /** Closes the bodies file and writes the manifest; returns the manifest's path. */
  close(): string {
    closeSync(this.fd)
    const manifest: ReplayManifest = { bodyFile: `${this.file}.bodies`, entries: this.entries }
    writeFileSync(this.file, JSON.stringify(manifest))
    return this.file
  }
}
