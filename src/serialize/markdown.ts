import { Marked } from 'marked'

const marked = new Marked({ gfm: true, async: false })
const rendered = new Map<string, string>()
const CACHE_LIMIT = 50_000

/** Markdown to the HTML the reference serves (`<p>…</p>`, no trailing newline); '' stays ''. */
export function renderMarkdown(markdown: string): string {
  if (markdown === '') return ''
  let html = rendered.get(markdown)
  if (html === undefined) {
    html = (marked.parse(markdown) as string).trim()
    // Rendering is the costliest step of a list; bodies repeat across requests, so keep them.
    if (rendered.size >= CACHE_LIMIT) rendered.clear()
    rendered.set(markdown, html)
  }
  return html
}

/** Escapes text for HTML, as WordPress's `esc_html` does for JSON-LD descriptions. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;')
}
