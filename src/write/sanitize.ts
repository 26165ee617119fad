import { createRequire } from 'node:module'
import type SanitizeHtml from 'sanitize-html'
import { canEditOthers, type Caller } from '../auth/roles.ts'
import { invalidParam } from '../errors.ts'
import type { MarkdownRenderer } from '../context/caches.ts'

// What contributors and authors may write, after WordPress's kses: the usual formatting tags of a
// post, links to http(s) and mailto, images from http(s). Editors and administrators have
// `unfiltered_html` and keep what they write. Scripts, styles, frames, forms and event handlers go.
const INLINE = [
  'a',
  'abbr',
  'b',
  'bdo',
  'br',
  'cite',
  'code',
  'del',
  'dfn',
  'em',
  'i',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
]
const BLOCK = [
  'address',
  'blockquote',
  'caption',
  'col',
  'colgroup',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'img',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]
const COMMON_ATTRIBUTES = ['class', 'id', 'title', 'lang', 'dir', 'role', 'aria-*']
const ATTRIBUTES: SanitizeHtml.IOptions['allowedAttributes'] = {
  '*': COMMON_ATTRIBUTES,
  a: ['href', 'name', 'target', 'rel', 'hreflang'],
  img: ['src', 'alt', 'width', 'height', 'loading'],
  blockquote: ['cite'],
  q: ['cite'],
  del: ['datetime'],
  ins: ['datetime'],
  time: ['datetime'],
  td: ['colspan', 'rowspan', 'align'],
  th: ['colspan', 'rowspan', 'align', 'scope'],
  ol: ['start', 'reversed', 'type'],
}

const options = (tags: string[]): SanitizeHtml.IOptions => ({
  allowedTags: tags,
  allowedAttributes: ATTRIBUTES,
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // The text is Markdown: `>` starts a quote and `&` is just a character. Neither can open a tag,
  // so they are given back as written; `<` stays escaped, and renders as the `<` it was.
  textFilter: (text) => text.replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
})
const POST = options([...INLINE, ...BLOCK])
const TITLE = options(INLINE)
const PLAIN = options([])

/** Fields whose text may carry HTML: Markdown bodies and excerpts, and names and titles. */
const BODY_FIELDS = ['description', 'excerpt']
const TITLE_FIELDS = ['title', 'venue', 'organizer', 'name']
/** Plain-text fields: served as they are (in JSON-LD too), so they carry no markup at all. */
const PLAIN_FIELDS = [
  'address',
  'city',
  'country',
  'province',
  'state',
  'stateprovince',
  'zip',
  'phone',
  'email',
  'cost',
  'event_status_reason',
]

/**
 * The longest description or excerpt contributors and authors may write, in characters. Rendering
 * costs up to a few microseconds a character for hostile Markdown (`- a` lines, `![` runs), and a
 * write renders it at once: this keeps one such write well under 50 ms of the event loop.
 */
export const UNTRUSTED_TEXT_LIMIT = 16_384

/**
 * The text contributors and authors may send through the sanitizer in one write, in characters, over every record
 * it makes (an event with its new venue, organizers and terms). sanitize-html takes up to ~0.9 µs a character of
 * dense markup (`<b>x</b>…`, measured on the shared 2-core machine), and far more for deep nesting (100,000 `<b>`
 * took 3–4 s); a 1 MB body of it held the event loop for seconds. At this bound a write takes at most ~60 ms.
 */
export const UNTRUSTED_WRITE_CHARS = 65_536

// sanitize-html (with postcss) is loaded when first needed, not when the server starts: it is a
// tenth of what a start loads, and only writes use it. `serve` loads it once it is ready.
let sanitizer: typeof SanitizeHtml | undefined

/** Loads sanitize-html (synchronously, once). */
export function loadSanitizer(): typeof SanitizeHtml {
  sanitizer ??= createRequire(import.meta.url)('sanitize-html') as typeof SanitizeHtml
  return sanitizer
}

const sanitizeHtml = (text: string, options: SanitizeHtml.IOptions) => loadSanitizer()(text, options)

/** Whether a caller keeps raw HTML (WordPress's `unfiltered_html`: editors and administrators). */
export function mayWriteRawHtml(caller: Caller): boolean {
  return canEditOthers(caller)
}

/** Markdown or HTML as contributors and authors may write it: allowed tags and safe URLs only. */
export function sanitizeBody(text: string): string {
  return sanitizeHtml(text, POST)
}

/** A title or name as contributors and authors may write it: inline formatting only. */
export function sanitizeTitle(text: string): string {
  return sanitizeHtml(text, TITLE)
}

// Characters each write has sent through the sanitizer so far, by its transaction (one a write, shared by the records
// it makes).
const spent = new WeakMap<object, number>()

/**
 * The changes of a write with their HTML-bearing text sanitized, unless the caller may write raw HTML. A name or
 * title that was markup alone, and would be left empty, is refused here as the caller's mistake.
 */
export function sanitizeChanges<T extends Record<string, unknown>>(
  changes: T,
  { caller, tx }: { caller: Caller; tx: object },
): T {
  if (mayWriteRawHtml(caller)) return changes
  for (const field of BODY_FIELDS) {
    const value = changes[field]
    if (typeof value === 'string' && value.length > UNTRUSTED_TEXT_LIMIT)
      throw invalidParam(
        field,
        `${field} takes at most ${UNTRUSTED_TEXT_LIMIT} characters from contributors and authors.`,
      )
  }
  chargeText(changes, tx)
  for (const field of BODY_FIELDS)
    if (typeof changes[field] === 'string')
      (changes as Record<string, unknown>)[field] = sanitizeBody(changes[field] as string)
  for (const field of TITLE_FIELDS) {
    const value = changes[field]
    if (typeof value !== 'string') continue
    const clean = sanitizeTitle(value)
    if (clean.trim() === '' && value.trim() !== '')
      throw invalidParam(field, `${field} holds only markup that contributors and authors may not write.`)
    ;(changes as Record<string, unknown>)[field] = clean
  }
  const plain = (value: unknown) => (typeof value === 'string' ? sanitizeHtml(value, PLAIN) : value)
  for (const field of PLAIN_FIELDS) {
    const value = changes[field]
    if (value !== undefined)
      (changes as Record<string, unknown>)[field] = Array.isArray(value) ? value.map(plain) : plain(value)
  }
  return changes
}

/** Counts a write's text against UNTRUSTED_WRITE_CHARS, refusing the field that passes it. */
function chargeText(changes: Record<string, unknown>, tx: object): void {
  let chars = spent.get(tx) ?? 0
  for (const field of [...BODY_FIELDS, ...TITLE_FIELDS, ...PLAIN_FIELDS]) {
    const value = changes[field]
    for (const text of Array.isArray(value) ? value : [value]) if (typeof text === 'string') chars += text.length
    if (chars > UNTRUSTED_WRITE_CHARS)
      throw invalidParam(
        field,
        `A write from contributors and authors holds at most ${UNTRUSTED_WRITE_CHARS} characters of text.`,
      )
  }
  spent.set(tx, chars)
}

/** A body as the store will read it back: what the Markdown cache is keyed by. */
function asStored(body: string): string {
  return body.replace(/\r\n/g, '\n').trimEnd().replace(/^\n/, '')
}

/**
 * Renders the Markdown a write brings (description, excerpt, and the description's first paragraph,
 * which JSON-LD shows) on a worker thread before the write is committed and answered, so that
 * neither its answer nor the lists after it render a long text on the event loop.
 */
export async function prepareMarkdownOf(changes: Record<string, unknown>, markdown: MarkdownRenderer): Promise<void> {
  const texts: string[] = []
  if (typeof changes.description === 'string') {
    const body = asStored(changes.description)
    texts.push(body, body.split(/\n\s*\n/)[0] ?? '')
  }
  if (typeof changes.excerpt === 'string') texts.push(changes.excerpt)
  await Promise.all(texts.map((text) => markdown.prepare(text)))
}
