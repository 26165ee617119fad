import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ContentDriver, DriverWatch } from '../../src/content/store/driver.ts'
import { StaleFilesError } from '../../src/content/store/errors.ts'

/** A driver under test, and what is really stored under a folder (temporary files included). */
export interface DriverUnderTest {
  driver: ContentDriver
  stored(folder: string): Promise<string[]>
  close(): Promise<void>
}

const HOSTILE = ['../x.md', '/etc/passwd', 'events/../../x.md', 'events\\a.md', '', 'events//a.md', './events/a.md']

/** Waits (bounded) until `test` holds. */
async function until(test: () => boolean, ms = 5_000): Promise<void> {
  for (const end = Date.now() + ms; !test(); ) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The contract every content driver keeps (src/content/store/driver.ts): run against the disk's and the memory's. */
export function driverContract(name: string, make: () => Promise<DriverUnderTest>): void {
  describe(`the ${name} driver`, () => {
    let under: DriverUnderTest
    let driver: ContentDriver
    beforeEach(async () => {
      under = await make()
      driver = under.driver
    })
    afterEach(() => under.close())

    it('reads back what it wrote, and null for a file it never had', async () => {
      await driver.write('events/a.md', '---\nid: 1\n---\nÀ bientôt 🎉\n')
      expect(driver.read('events/a.md')).toMatchObject({ text: '---\nid: 1\n---\nÀ bientôt 🎉\n' })
      expect(driver.peek('events/a.md')).toBe('---\nid: 1\n---\nÀ bientôt 🎉\n')
      expect(driver.read('events/none.md')).toBeNull()
      expect(driver.peek('events/none.md')).toBeNull()
      expect(driver.mtimeOf('events/a.md')).toBeGreaterThan(0)
      expect(driver.mtimeOf('events/none.md')).toBe(0)
    })

    it('replaces a file whole, removes it, and takes the removal of a missing file calmly', async () => {
      await driver.write('events/a.md', 'first, and longer than the second')
      await driver.write('events/a.md', 'second')
      expect(driver.peek('events/a.md')).toBe('second')
      await driver.remove('events/a.md')
      expect(driver.peek('events/a.md')).toBeNull()
      await driver.remove('events/a.md')
      await driver.remove('venues/never.md')
      expect(driver.read('events/a.md')).toBeNull()
    })

    it('with the text it expects, replaces or removes a file only when that is what is there', async () => {
      await driver.write('events/a.md', 'as planned', null)
      await expect(driver.write('events/a.md', 'over a new file', null)).rejects.toBeInstanceOf(StaleFilesError)
      await expect(driver.write('events/a.md', 'over an edit', 'not this')).rejects.toBeInstanceOf(StaleFilesError)
      await expect(driver.remove('events/a.md', 'not this')).rejects.toBeInstanceOf(StaleFilesError)
      await expect(driver.remove('events/a.md', null)).rejects.toBeInstanceOf(StaleFilesError)
      expect(driver.peek('events/a.md')).toBe('as planned')
      expect((await under.stored('events')).sort()).toEqual(['a.md'])
      await driver.write('events/a.md', 'next', 'as planned')
      expect(driver.peek('events/a.md')).toBe('next')
      await driver.remove('events/a.md', 'next')
      expect(driver.peek('events/a.md')).toBeNull()
    })

    it('lists a folder sorted and without temporary files, null for a folder that is not there', async () => {
      for (const path of ['events/b.md', 'events/a.md', 'venues/x.md', 'events/.4242.1.k3j2h1.tmp'])
        await driver.write(path, 'text')
      expect(driver.list('events')).toEqual(['a.md', 'b.md'])
      expect(driver.list('venues')).toEqual(['x.md'])
      expect(driver.list('tags')).toBeNull()
      expect(driver.hasFolder('events')).toBe(true)
      expect(driver.hasFolder('tags')).toBe(false)
    })

    it('leaves no temporary file behind its writes, and a folder it empties can go', async () => {
      for (let i = 0; i < 5; i++) await driver.write('tags/t.md', `version ${i}`)
      expect(await under.stored('tags')).toEqual(['t.md'])
      await driver.remove('tags/t.md')
      driver.removeFolder('tags')
      expect(driver.hasFolder('tags')).toBe(false)
    })

    it('never lets a reader see half a file', async () => {
      const texts = ['a'.repeat(1 << 20), 'b'.repeat(1 << 19)]
      await driver.write('events/big.md', texts[0]!)
      let writing = true
      const seen = new Set<string>()
      const reading = (async () => {
        while (writing) {
          seen.add(driver.peek('events/big.md') ?? 'none')
          await new Promise((resolve) => setImmediate(resolve))
        }
      })()
      for (let i = 1; i <= 8; i++) await driver.write('events/big.md', texts[i % 2]!)
      writing = false
      await reading
      expect([...seen].every((text) => texts.includes(text))).toBe(true)
    })

    it('leaves the old text when a write fails', async () => {
      await driver.write('events/a.md', 'old')
      await expect(driver.write('events/a.md/b.md', 'under a file')).rejects.toThrow()
      await expect(driver.write('events', 'over a folder')).rejects.toThrow()
      expect(driver.peek('events/a.md')).toBe('old')
      expect(await under.stored('events')).toEqual(['a.md'])
    })

    it('leaves nothing in the folder of a write that fails once its bytes are out', async () => {
      // Over a folder inside `events`: the new text is written in full beside the target (in `events`),
      // and only putting it in place fails; what was written must go.
      await driver.write('events/a.md', 'old')
      await driver.write('events/sub/x.md', 'a file in a folder')
      await expect(driver.write('events/sub', 'over a folder')).rejects.toThrow()
      expect(await under.stored('events')).toEqual(['a.md', 'sub'])
      expect(driver.peek('events/sub/x.md')).toBe('a file in a folder')
    })

    it('refuses every path that could leave the tree', async () => {
      for (const path of HOSTILE) {
        expect(() => driver.read(path), path).toThrow(/outside the content tree/)
        expect(() => driver.peek(path), path).toThrow(/outside the content tree/)
        await expect(driver.write(path, 'x'), path).rejects.toThrow(/outside the content tree/)
        await expect(driver.remove(path), path).rejects.toThrow(/outside the content tree/)
      }
    })

    it('finds the record files that differ from the texts it was told were read', async () => {
      for (const name of ['a', 'b', 'c']) await driver.write(`events/${name}.md`, name)
      const read = new Map([
        ['events/a.md', 'a'],
        ['events/b.md', 'b as it was'],
        ['events/gone.md', 'gone'],
      ])
      expect(await driver.changed(read, new Map())).toEqual(['events/b.md', 'events/c.md', 'events/gone.md'])
    })

    it('tells a watcher of every write and removal', async () => {
      await driver.write('events/before.md', 'the folder is there before the watch starts')
      const heard: string[] = []
      const watch: DriverWatch = driver.watch({ changed: (paths) => heard.push(...paths), failed: () => {} })
      try {
        await watch.ready
        await driver.write('events/w.md', 'watched')
        await until(() => heard.includes('events/w.md'))
        heard.length = 0
        await driver.remove('events/w.md')
        await until(() => heard.includes('events/w.md'))
      } finally {
        await watch.close()
      }
    })

    it('agrees with a Map after any sequence of writes, removals and reads', async () => {
      const path = fc.constantFrom('events/a.md', 'events/a.ms.md', 'events/b.md', 'venues/a.md')
      const step = fc.oneof(
        fc.record({ write: path, text: fc.string({ unit: 'grapheme', maxLength: 40, size: 'max' }) }),
        fc.record({ remove: path }),
      )
      const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 12, size: 'max' }), async (steps) => {
          for (const folder of ['events', 'venues'])
            for (const name of driver.list(folder) ?? []) await driver.remove(`${folder}/${name}`)
          const model = new Map<string, string>()
          for (const op of steps) {
            if ('write' in op) {
              await driver.write(op.write, op.text)
              model.set(op.write, op.text)
            } else {
              await driver.remove(op.remove)
              model.delete(op.remove)
            }
            for (const p of ['events/a.md', 'events/a.ms.md', 'events/b.md', 'venues/a.md'])
              expect(driver.peek(p)).toBe(model.get(p) ?? null)
          }
          const listed = ['events', 'venues'].flatMap((f) => (driver.list(f) ?? []).map((n) => `${f}/${n}`))
          expect(listed).toEqual([...model.keys()].sort())
        }),
        { numRuns: 15, seed },
      )
    })
  })
}
