import { describe, expect, it } from 'vitest'
import { createMarkdownRenderer } from '../../src/serialize/markdown.ts'

/** A renderer over a stand-in that counts what it is asked to render. */
function counting() {
  const asked: string[] = []
  const renderer = createMarkdownRenderer(
    (text) => {
      asked.push(text)
      return `<p>${text}</p>`
    },
    () => {},
    async () => ({ id: 0, html: '' }),
  )
  return { renderer, asked }
}

describe('the Markdown cache', () => {
  it('keeps a text it rendered, so the same text is rendered once', () => {
    const { renderer, asked } = counting()
    renderer.render('same')
    renderer.render('same')
    expect(asked).toEqual(['same'])
  })

  it('lets go of the oldest texts once it holds 4 M characters, though they are far fewer than its count bound', () => {
    const { renderer, asked } = counting()
    const long = (n: number) => `${n} ${'x'.repeat(256 * 1024)}`
    renderer.render(long(0))
    // 20 texts of 256 Ki characters each, and their HTML: past 4 Mi characters, where the count bound is 20,000.
    for (let n = 1; n <= 20; n++) renderer.render(long(n))
    renderer.render(long(0))
    renderer.render(long(20))
    expect(asked.filter((text) => text === long(0))).toHaveLength(2)
    expect(asked.filter((text) => text === long(20))).toHaveLength(1)
  })
})
