import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../helpers.ts'

const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')

describe('almanac build, from the command line', () => {
  it('writes the static API and prints a one-line summary when not on a terminal', async () => {
    const out = await mkdtemp(join(tmpdir(), 'almanac-cli-build-'))
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'build', '--content', join(FIXTURES, 'reference', 'content'), '--out', out, '--base-url', 'https://cdn.example.org/cal'], { timeout: 30_000 })
      expect(stdout).toMatch(/^Built \d+ files \([\d.]+ MB\) into .+ in [\d.]+ s: \d+ written, 0 removed\n$/)
      const event = JSON.parse(await readFile(join(out, 'wp-json/calendar/events/v1/events/7.json'), 'utf8'))
      expect(event.rest_url).toBe('https://cdn.example.org/cal/wp-json/calendar/events/v1/events/7.json')
      expect(event.translations.ms.rest_url).toBe('https://cdn.example.org/cal/ms/wp-json/calendar/events/v1/events/7.json')
    } finally {
      await rm(out, { recursive: true, force: true })
    }
  })
})
