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

/** Markdown to HTML as the API serves it, bounded nesting and safe links only; prose (prose.ts) skips markdown-it. */
export function createMarkdownIt(): (markdown: string) => string {
  const render = createFullMarkdownIt()
  return (markdown) => proseHtml(markdown) ?? render(markdown)
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
