import { describe, expect, it, vi } from 'vitest'
import * as markdown from '../../src/serialize/markdown.ts'

// A renderer as an app makes one; its cache is this file's alone.
const renderer = markdown.createMarkdownRenderer()
const renderMarkdown = (text: string) => renderer.render(text)

describe('Markdown of hostile descriptions', () => {
  it('renders 2,000 nested quotes without overflowing the stack', () => {
    expect(() => renderMarkdown(`${'>'.repeat(2000)} deep`)).not.toThrow()
  })

  it('renders 2,000 nested list items and emphasis without overflowing the stack', () => {
    for (const text of [
      `${'- '.repeat(2000)}x`,
      `${'*'.repeat(5000)}x${'*'.repeat(5000)}`,
      `${'['.repeat(5000)}x${'](a)'.repeat(5000)}`,
    ]) {
      expect(() => renderMarkdown(text)).not.toThrow()
    }
  })

  it('serves the text of a record it cannot render escaped, and logs the failure once', () => {
    const create = (markdown as Record<string, unknown>).createMarkdownRenderer as
      | undefined
      | ((render: (text: string) => string, log: (message: string) => void) => { render(text: string): string })
    expect(create, 'createMarkdownRenderer is exported').toBeTypeOf('function')
    const log = vi.fn()
    const renderer = create!((text) => {
      if (text.includes('boom')) throw new RangeError('Maximum call stack size exceeded')
      return `<p>${text}</p>\n`
    }, log)
    expect(renderer.render('fine')).toBe('<p>fine</p>')
    expect(renderer.render('<b>boom</b> & "more"')).toBe('<p>&lt;b&gt;boom&lt;/b&gt; &amp; &quot;more&quot;</p>')
    expect(renderer.render('<b>boom</b> & "more"')).toBe('<p>&lt;b&gt;boom&lt;/b&gt; &amp; &quot;more&quot;</p>')
    expect(log).toHaveBeenCalledTimes(1)
    expect(log.mock.calls[0]![0]).toMatch(/Maximum call stack size exceeded/)
  })
})

describe('links in Markdown', () => {
  const hostile = [
    '[x](javascript:alert(1))',
    '[x](JavaScript:alert(1))',
    '[x]( javascript:alert(1) )',
    '[x](vbscript:msgbox(1))',
    '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[x][ref]\n\n[ref]: javascript:alert(1)',
    '<javascript:alert(1)>',
    '![i](javascript:alert(1))',
    '![i](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)',
  ]
  it.each(hostile)('renders %j without a javascript:, vbscript: or data: URL', (text) => {
    const html = renderMarkdown(text)
    expect(html).not.toMatch(/(href|src)="\s*(javascript|vbscript|data):/i)
  })

  it('keeps http(s), mailto and relative links', () => {
    expect(
      renderMarkdown(
        '[a](https://example.org/x) [b](mailto:a@example.org) [c](/events/7) ![d](http://example.org/i.png)',
      ),
    ).toBe(
      '<p><a href="https://example.org/x">a</a> <a href="mailto:a@example.org">b</a> <a href="/events/7">c</a> <img src="http://example.org/i.png" alt="d"></p>',
    )
  })
})

describe('Markdown rendering time', () => {
  // The cases: each held the event loop for seconds. Bounds are generous for a loaded CI;
  // the fuzz suite measures the event loop's delay around whole requests.
  it.each([
    ['_a repeated 60,000 times', '_a'.repeat(60_000)],
    ['240 KB of <', '<'.repeat(240_000)],
    ['240 KB of nested quotes', '>'.repeat(240_000)],
  ])('renders %s in well under a second', (_name, text) => {
    const started = performance.now()
    renderMarkdown(text)
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
