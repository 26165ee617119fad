import { mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

// A deploy points the content link at a new release while a write runs (`content -> releases/2`). The write made its
// temporary file through the link, then renamed and cleaned up through it again: a swap between two steps left the
// temporary file in the old release and failed the rename (a 500). The swap is made here at the worst moment: right
// after the temporary file is opened.
const swap = vi.hoisted(() => ({ now: undefined as (() => Promise<void>) | undefined }))
vi.mock('node:fs/promises', async (original) => {
  const actual = await original<typeof import('node:fs/promises')>()
  const open = async (...args: Parameters<typeof actual.open>) => {
    const handle = await actual.open(...args)
    const then = swap.now
    if (then && String(args[0]).endsWith('.tmp')) {
      swap.now = undefined
      await then()
    }
    return handle
  }
  return { ...actual, default: { ...actual, open }, open }
})

const { createDiskDriver } = await import('../../src/content/store/disk-driver.ts')

let base = ''
afterEach(async () => {
  swap.now = undefined
  await rm(base, { recursive: true, force: true })
})

describe('a write while the content link is pointed at another release', () => {
  it('lands whole in the release it began in, leaving no temporary file', async () => {
    base = await mkdtemp(join(tmpdir(), 'almanac-link-swap-'))
    const [one, two, link] = ['one', 'two', 'content'].map((name) => join(base, name))
    for (const release of [one!, two!]) await mkdir(join(release, 'events'), { recursive: true })
    await writeFile(join(one!, 'events', 'a.en.md'), 'before')
    await symlink(one!, link!)
    const driver = createDiskDriver(link!)
    swap.now = async () => {
      await symlink(two!, `${link}.new`)
      await rename(`${link}.new`, link!)
    }
    await driver.write('events/a.en.md', 'after', 'before')
    expect(swap.now).toBeUndefined()
    expect(await readFile(join(one!, 'events', 'a.en.md'), 'utf8')).toBe('after')
    expect(await readdir(join(one!, 'events'))).toEqual(['a.en.md'])
    expect(await readdir(join(two!, 'events'))).toEqual([])
  })
})
