import MarkdownIt from 'markdown-it'
import { proseHtml } from './prose.ts'

// Real descriptions nest a few levels; deeper structure (a hostile `>>>>…`) is not rendered further,
// where unbounded recursion overflowed the stack.
const MAX_NESTING = 64
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

/**
 * The longest Markdown markdown-it reads. It reads any text in linear time, but at up to ~2.6 µs a character for
 * hostile patterns (`![![![…`, measured on a small server): a 4 MB content file (the most the store reads) held
 * the event loop 11 s, whenever an answer needed it before the worker thread had rendered it. At this length the
 * worst is ~0.2 s. Longer Markdown is served as the renderer serves a text it cannot handle (`markdownAsText`);
 * prose, which skips markdown-it, is rendered whatever its length.
 */
export const MAX_MARKDOWN_CHARS = 65_536

/** Whether markdown-it would be asked to read this text (it is not prose, and not longer than it reads). */
export function isTooLongForMarkdown(markdown: string): boolean {
  return markdown.length > MAX_MARKDOWN_CHARS
}

/**
 * Markdown to HTML as the API serves it, bounded nesting and safe links only; prose (prose.ts) skips markdown-it,
 * and Markdown past MAX_MARKDOWN_CHARS is served as text.
 */
export function createMarkdownIt(): (markdown: string) => string {
  const render = createFullMarkdownIt()
  return (markdown) =>
    proseHtml(markdown) ?? (isTooLongForMarkdown(markdown) ? markdownAsText(markdown) : render(markdown))
}

/** A text as one paragraph of escaped text, as WordPress's `esc_html` escapes it. */
export function markdownAsText(markdown: string): string {
  return `<p>${escapeHtml(markdown)}</p>`
}

/** Escapes text for HTML, as WordPress's `esc_html` does for JSON-LD descriptions. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;')
}

/** `createMarkdownIt` with every text through markdown-it, prose too. */
export function createFullMarkdownIt(): (markdown: string) => string {
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
