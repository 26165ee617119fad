import MarkdownIt from 'markdown-it'
import { isSafeLink, isTooLongForMarkdown } from '../markdown-it.ts'
import { proseText } from '../prose.ts'

// A feed's DESCRIPTION is plain text (RFC 5545 section 3.8.1.5): calendar apps show it as it is. The Markdown
// is read into markdown-it's tokens and only their text is kept: paragraphs and headings end with a
// blank line, list items start with "- ", a link keeps its address after its text, raw HTML is left out.

const md = new MarkdownIt({ html: true, linkify: true, maxNesting: 64 })
md.validateLink = (url) => isSafeLink(url)

type Token = ReturnType<typeof md.parse>[number]

/**
 * The text of a Markdown document, without markup; '' stays ''. Prose (../prose.ts) skips markdown-it, and a text
 * longer than is read as Markdown (MAX_MARKDOWN_CHARS) is given as it is, as the JSON serves it as text.
 */
export function plainText(markdown: string): string {
  return isTooLongForMarkdown(markdown) ? markdown.trim() : (proseText(markdown) ?? tokensText(markdown))
}

/** `plainText` through markdown-it's tokens, prose too. */
export function tokensText(markdown: string): string {
  if (markdown.trim() === '') return ''
  const out: string[] = []
  for (const token of md.parse(markdown, {})) block(token, out)
  return out
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

function block(token: Token, out: string[]): void {
  switch (token.type) {
    case 'inline': {
      const links: string[] = []
      for (const child of token.children ?? []) inline(child, out, links)
      return
    }
    case 'paragraph_close':
      // A tight list's items hold hidden paragraphs: the item's own line break is enough.
      if (!token.hidden) out.push('\n\n')
      return
    case 'heading_close':
    case 'blockquote_close':
    case 'bullet_list_close':
    case 'ordered_list_close':
      out.push('\n\n')
      return
    case 'list_item_open':
      out.push(token.info ? `${token.info}. ` : '- ')
      return
    case 'list_item_close':
      out.push('\n')
      return
    case 'fence':
    case 'code_block':
      out.push(token.content, '\n')
      return
    case 'hr':
      out.push('---\n\n')
      return
    // A table: its cells apart, each row a line of its own.
    case 'th_close':
    case 'td_close':
      out.push(' | ')
      return
    case 'tr_close':
      out.push('\n')
      return
    case 'table_close':
      out.push('\n')
  }
}

function inline(token: Token, out: string[], links: string[]): void {
  switch (token.type) {
    case 'text':
    case 'code_inline':
    case 'image':
      out.push(token.content)
      return
    case 'softbreak':
    case 'hardbreak':
      out.push('\n')
      return
    case 'link_open':
      // A link keeps its address after its text, unless its text is the address (linkify).
      links.push(token.markup === 'linkify' ? '' : String(token.attrGet('href') ?? '').replace(/^mailto:/, ''))
      return
    case 'link_close': {
      const href = links.pop()
      if (href) out.push(` (${href})`)
    }
  }
}
