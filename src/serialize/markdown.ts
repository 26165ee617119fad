import { Marked } from 'marked'

const marked = new Marked({ gfm: true, async: false })
const rendered = new Map<string, string>()
const CACHE_LIMIT = 20_000

/** Markdown to the HTML the reference serves (`<p>…</p>`, no trailing newline); '' stays ''. */
export function renderMarkdown(markdown: string): string {
  if (markdown === '') return ''
  let html = rendered.get(markdown)
  if (html === undefined) {
    html = (marked.parse(markdown) as string).trim()
    // Rendering is costly and bodies repeat across requests; the oldest entry goes when the cache is full.
    if (rendered.size >= CACHE_LIMIT) rendered.delete(rendered.keys().next().value!)
    rendered.set(markdown, html)
  }
  return html
}

/** Escapes text for HTML, as WordPress's `esc_html` does for JSON-LD descriptions. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;')
}
