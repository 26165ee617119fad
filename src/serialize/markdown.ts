import MarkdownIt from 'markdown-it'

/** Turns one text into HTML; may throw (a renderer's bug must not fail the answer around it). */
export type RenderFn = (markdown: string) => string

// Real descriptions nest a few levels; deeper structure (a hostile `>>>>…`) is not rendered further,
// where unbounded recursion overflowed the stack.
const MAX_NESTING = 64
const CACHE_LIMIT = 20_000
// Schemes a Markdown link or image may use; anything else (javascript:, data:, vbscript:…) becomes no link.
const LINK_SCHEMES = /^(https?|mailto|tel):/i
const IMAGE_SCHEMES = /^https?:/i
const SCHEME = /^[a-z][a-z0-9+.-]*:/i

/** Whether a Markdown link target is safe to serve: relative, or one of the allowed schemes. */
export function isSafeLink(url: string, image = false): boolean {
  const target = url.trim()
  if (!SCHEME.test(target)) return true
  return (image ? IMAGE_SCHEMES : LINK_SCHEMES).test(target)
}

function createMarkdownIt(): RenderFn {
  const md = new MarkdownIt({ html: true, linkify: true, maxNesting: MAX_NESTING })
  md.validateLink = (url) => isSafeLink(url)
  const image = md.renderer.rules.image!
  // validateLink cannot tell an image from a link: images are held to http(s) here.
  md.renderer.rules.image = (tokens, i, options, env, self) => {
    if (!isSafeLink(String(tokens[i]!.attrGet('src') ?? ''), true)) tokens[i]!.attrSet('src', '')
    return image(tokens, i, options, env, self)
  }
  return (markdown) => md.render(markdown)
}

/** A Markdown renderer with a cache: the same text is rendered once, and a failure stays with its text. */
export interface MarkdownRenderer {
  /** Markdown to HTML (`<p>…</p>`, no trailing newline); '' stays ''. Never throws. */
  render(markdown: string): string
}

/**
 * A renderer over `render`. A text it cannot render is served as escaped text in a paragraph,
 * and the failure is logged once (the fallback is cached like any answer).
 */
export function createMarkdownRenderer(render: RenderFn = createMarkdownIt(), log: (message: string) => void = console.error): MarkdownRenderer {
  const rendered = new Map<string, string>()
  const attempt = (markdown: string) => {
    try {
      return render(markdown).trim()
    } catch (error) {
      log(`almanac: Markdown of ${markdown.length} characters could not be rendered, served as text: ${(error as Error).message}`)
      return `<p>${escapeHtml(markdown)}</p>`
    }
  }
  return {
    render(markdown) {
      if (markdown === '') return ''
      let html = rendered.get(markdown)
      if (html === undefined) {
        html = attempt(markdown)
        // Rendering is costly and bodies repeat across requests; the oldest entry goes when the cache is full.
        if (rendered.size >= CACHE_LIMIT) rendered.delete(rendered.keys().next().value!)
        rendered.set(markdown, html)
      }
      return html
    },
  }
}

const shared = createMarkdownRenderer()

/** Markdown to the HTML the reference serves (`<p>…</p>`, no trailing newline); '' stays ''. */
export function renderMarkdown(markdown: string): string {
  return shared.render(markdown)
}

/** Escapes text for HTML, as WordPress's `esc_html` does for JSON-LD descriptions. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;')
}
