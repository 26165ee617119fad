import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { MarkdownRenderer } from '../../src/context/caches.ts'
import { createMarkdownRenderer, OFF_THREAD_FROM } from '../../src/serialize/markdown.ts'

// Long texts held for the records that hold them (src/serialize/markdown.ts): however many other texts pass through
// the bounded cache, a held text is never rendered again on the calling thread, its HTML is what a render gives, and
// it goes with its last holder. FC_SEED=<n> replays a failure of the property.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 50)

const html = (text: string) => `<p>${text}</p>`
// 64 Ki characters with its HTML: 64 of them fill the cache's 4 Mi characters. Made once each.
const LONG = '![x'.repeat((32 * 1024) / 3)
const made = new Map<number, string>()
function long(n: number): string {
  const text = made.get(n) ?? `${n} ${LONG}`
  made.set(n, text)
  return text
}

/** A renderer whose renders on this thread and on the "worker" are counted apart; the worker answers when told. */
function counting(worker: 'answers' | 'none' | 'waits' = 'answers') {
  const here: string[] = []
  const there: string[] = []
  const waiting: (() => void)[] = []
  const offThread =
    worker === 'none'
      ? null
      : async (markdown: string) => {
          there.push(markdown)
          if (worker === 'waits') await new Promise<void>((resolve) => waiting.push(resolve))
          return { id: 0, html: html(markdown) }
        }
  const renderer = createMarkdownRenderer(
    (text) => {
      here.push(text)
      return html(text)
    },
    () => {},
    offThread,
  )
  return {
    renderer,
    here,
    there,
    answer: () => {
      for (const resolve of waiting.splice(0)) resolve()
    },
  }
}

/** Renders enough other long texts to push everything the bounded cache holds out of it, twice over. */
function churn(renderer: MarkdownRenderer, from = 1_000) {
  for (let n = from; n < from + 140; n++) renderer.render(long(n))
}

describe('long texts held for their records', () => {
  it('are rendered once, off the calling thread, and never again however many texts pass through the cache', async () => {
    const { renderer, here, there } = counting()
    const texts = Array.from({ length: 60 }, (_, n) => long(n))
    await Promise.all(texts.map((text) => renderer.hold(text)))
    expect(there).toHaveLength(60)
    churn(renderer, 1_000)
    here.length = 0
    for (const text of texts) expect(renderer.render(text) === html(text)).toBe(true)
    expect(here).toHaveLength(0)
    // Without holding, the same texts would be rendered here again: the cache let them go.
    for (const text of texts) renderer.release(text)
    churn(renderer, 2_000)
    here.length = 0
    renderer.render(texts[0]!)
    expect(here).toHaveLength(1)
  })

  it('moves a text a write prepared from the cache to its holders, and sends a text asked twice to the worker once', async () => {
    const { renderer, here, there } = counting()
    await renderer.prepare(long(1))
    await renderer.hold(long(1))
    // A body that is its own first paragraph is held twice, at once.
    await Promise.all([renderer.hold(long(2)), renderer.hold(long(2))])
    expect(there).toEqual([long(1), long(2)])
    churn(renderer, 1_000)
    here.length = 0
    renderer.render(long(1))
    renderer.render(long(2))
    expect(here).toHaveLength(0)
  })

  it('keeps what the calling thread rendered before the worker answered, and the answer changes nothing', async () => {
    const { renderer, here, answer } = counting('waits')
    const ready = renderer.hold(long(1))
    expect(renderer.render(long(1)) === html(long(1))).toBe(true)
    answer()
    await ready
    churn(renderer, 1_000)
    renderer.render(long(1))
    expect(here.filter((text) => text === long(1))).toHaveLength(1)
  })

  it('without a worker (a static build), renders a held text where first asked for, once', () => {
    const { renderer, here } = counting('none')
    expect(renderer.hold(long(1))).toBeUndefined()
    renderer.render(long(1))
    churn(renderer, 1_000)
    renderer.render(long(1))
    expect(here.filter((text) => text === long(1))).toHaveLength(1)
  })

  it('lets a text go with its last holder, so that edits leave nothing behind; short texts are never held', async () => {
    const { renderer } = counting()
    await renderer.hold(long(1))
    await renderer.hold(long(1))
    renderer.release(long(1))
    expect(renderer.held().texts).toBe(1)
    renderer.release(long(1))
    expect(renderer.held()).toEqual({ texts: 0, characters: 0 })
    // A thousand edits of a description, each record held before the one it replaces is released.
    for (let n = 0; n < 1_000; n++) {
      await renderer.hold(long(n + 1))
      renderer.release(long(n))
    }
    expect(renderer.held()).toEqual({ texts: 1, characters: html(long(1_000)).length })
    expect(renderer.hold('x'.repeat(OFF_THREAD_FROM - 1))).toBeUndefined()
    expect(renderer.held().texts).toBe(1)
  })

  it('holds what a model counts, serves every text as a render gives it, and renders a held text here at most once', async () => {
    const op = fc.record({
      kind: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('hold', 'release', 'render') },
        { weight: 1, arbitrary: fc.constantFrom('churn', 'prepare') },
      ),
      text: fc.nat({ max: 3 }),
      wait: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('answers', 'none', 'waits'),
        fc.array(op, { maxLength: 40, size: 'max' }),
        async (w, ops) => {
          const { renderer, here, answer } = counting(w as 'answers' | 'none' | 'waits')
          const holders = new Map<number, number>()
          // Renders here of each text since it was last held by no one.
          const since = new Map<number, number>()
          for (const { kind, text, wait } of ops) {
            const count = holders.get(text) ?? 0
            if (kind === 'hold') {
              const ready = renderer.hold(long(text))
              holders.set(text, count + 1)
              if (wait) answer()
              if (wait) await ready
            } else if (kind === 'release' && count > 0) {
              renderer.release(long(text))
              holders.set(text, count - 1)
              if (count === 1) since.delete(text)
            } else if (kind === 'render') {
              const before = here.length
              expect(renderer.render(long(text)) === html(long(text)), `seed ${SEED}`).toBe(true)
              if (count > 0) since.set(text, (since.get(text) ?? 0) + here.length - before)
            } else if (kind === 'churn') churn(renderer)
            else if (kind === 'prepare') void renderer.prepare(long(text))
            for (const [t, renders] of since)
              expect(renders, `seed ${SEED}: text ${t} rendered here ${renders} times while held`).toBeLessThanOrEqual(
                1,
              )
            const live = [...holders.values()].filter((n) => n > 0).length
            expect(renderer.held().texts, `seed ${SEED}`).toBe(live)
          }
          answer()
        },
      ),
      { numRuns: RUNS, seed: SEED },
    )
  })
})
