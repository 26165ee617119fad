import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { listenHttp } from '../../src/cli/listen.ts'
import { printable, redacted, requestLine } from '../../src/cli/request-log.ts'
import { colourAllowed, plain } from '../../src/cli/usage.ts'
import { closest } from '../../src/suggest.ts'

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)

describe('the request log', () => {
  it('writes one line per request at the listener: method, path, status and milliseconds, the secret left out', async () => {
    const lines: string[] = []
    const listener = await listenHttp(
      (req, res) => {
        res.statusCode = req.url?.startsWith('/missing') ? 404 : 200
        res.end('{}')
      },
      { port: 0, host: '127.0.0.1', exact: false, log: (line) => lines.push(line) },
    )
    try {
      const base = `http://127.0.0.1:${listener.port}`
      await (await fetch(`${base}/wp-json/x?Password=open-sesame&page=2`)).text()
      await (await fetch(`${base}/missing`, { method: 'DELETE' })).text()
    } finally {
      await listener.close()
    }
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^GET \/wp-json\/x\?Password=\*\*\*&page=2 200 \d+ ms$/)
    expect(lines[1]).toMatch(/^DELETE \/missing 404 \d+ ms$/)
  })

  it('redacts passwords, tokens and keys however their names are encoded, and nothing else', () => {
    expect(redacted('/e?pass%77ord=x&p%61ssword=y&access_token=z&api_key=k&page=2&search=pass')).toBe(
      '/e?pass%77ord=***&p%61ssword=***&access_token=***&api_key=***&page=2&search=pass',
    )
    expect(redacted('/e?password')).toBe('/e?password=***')
    expect(redacted('/events/7')).toBe('/events/7')
  })

  it('escapes control characters and backslashes, so a hostile path cannot forge a line', () => {
    expect(printable('/a\nGET /forged 200 1 ms\r\u001b[2J\\x')).toBe(
      '/a\\x0aGET\\x20/forged\\x20200\\x201\\x20ms\\x0d\\x1b[2J\\x5cx',
    )
  })

  it('is always one line of printable ASCII that never holds a password value (property)', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{8,20}$/)
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 30, size: 'max' }),
        fc.string({ unit: 'binary', maxLength: 60, size: 'max' }),
        secret,
        (method, path, value) => {
          const line = requestLine(method, `${path}?password=${value}`, '200', 3)
          expect(line).toMatch(/^[\x20-\x7e]+$/)
          expect(line.endsWith('=*** 200 3 ms')).toBe(true)
        },
      ),
      { numRuns: 100, seed },
    )
  })
})

describe('colour and suggestions', () => {
  it('shows colour only on a terminal, and never with NO_COLOR set', () => {
    expect(colourAllowed({ isTTY: true, write: () => true }, {})).toBe(true)
    expect(colourAllowed({ isTTY: true, write: () => true }, { NO_COLOR: 'yes' })).toBe(false)
    expect(colourAllowed({ isTTY: false, write: () => true }, {})).toBe(false)
    expect(plain('\u001b[36m--port\u001b[39m')).toBe('--port')
  })

  it('suggests a close known word, and none for a far one', () => {
    expect(closest('prot', ['port', 'host'])).toBe('port')
    expect(closest('currancy', ['currency', 'currency_symbol'])).toBe('currency')
    expect(closest('colour', ['currency', 'port'])).toBeUndefined()
  })
})
