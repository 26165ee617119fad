import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../helpers.ts'

const BIN = resolve(import.meta.dirname, '../../bin/almanac.js')

describe('almanac build, from the command line', () => {
  it('writes the static API from worker threads and prints a one-line summary when not on a terminal', async () => {
    const out = await mkdtemp(join(tmpdir(), 'almanac-cli-build-'))
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          BIN,
          'build',
          '--content',
          join(FIXTURES, 'reference', 'content'),
          '--out',
          out,
          '--base-url',
          'https://cdn.example.org/cal',
          '--workers',
          '2',
        ],
        { timeout: 30_000 },
      )
      expect(stdout).toMatch(/^Built \d+ files \([\d.]+ MB\) into .+ in [\d.]+ s: \d+ written, 0 removed\n$/)
      const event = JSON.parse(await readFile(join(out, 'wp-json/calendar/events/v1/events/7.json'), 'utf8'))
      expect(event.rest_url).toBe('https://cdn.example.org/cal/wp-json/calendar/events/v1/events/7.json')
      expect(event.translations.ms.rest_url).toBe(
        'https://cdn.example.org/cal/ms/wp-json/calendar/events/v1/events/7.json',
      )
      const bySlug = await readFile(
        join(out, 'wp-json/calendar/events/v1/events/by-slug', `${event.slug}.json`),
        'utf8',
      )
      expect(JSON.parse(bySlug)).toEqual(event)
    } finally {
      await rm(out, { recursive: true, force: true })
    }
  })

  it('refuses a worker count that is not a whole number, writing nothing', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'almanac-cli-build-')), 'dist')
    try {
      const run = promisify(execFile)(
        process.execPath,
        [BIN, 'build', '--content', join(FIXTURES, 'reference', 'content'), '--out', out, '--workers', 'many'],
        { timeout: 30_000 },
      )
      await expect(run).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('--workers must be a whole number'),
      })
      await expect(readFile(join(out, 'manifest.json'))).rejects.toThrow()
    } finally {
      await rm(join(out, '..'), { recursive: true, force: true })
    }
  })

  it('says why a build failed, in one line, when a worker cannot write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'almanac-cli-build-'))
    const out = join(dir, 'dist')
    await writeFile(out, 'a file where the output folder should be')
    try {
      const run = promisify(execFile)(
        process.execPath,
        [BIN, 'build', '--content', join(FIXTURES, 'reference', 'content'), '--out', out, '--workers', '2'],
        { timeout: 30_000 },
      )
      await expect(run).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/^Config: .*\nalmanac: build failed: ENOTDIR: not a directory, .*\n$/),
      })
      expect(await readFile(out, 'utf8')).toBe('a file where the output folder should be')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
