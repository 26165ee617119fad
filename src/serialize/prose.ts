// Most descriptions are prose: paragraphs of words and sentence punctuation, with now and then a word in
// `*emphasis*` or `**strong**` and a `[link](https://…)`. Such a text is read here without markdown-it, which took
// ~24 µs a description of the bench's tree (this ~7), once for each event's HTML and once more for its feed's plain
// text: about a tenth of a static build's CPU. Anything else goes to markdown-it; a property
// (test/serialize/prose.test.ts) holds both ways to the same HTML and plain text.

/** A piece of a paragraph: text, emphasis (`*`, 1) or strong emphasis (`**`, 2), or a link. */
export type Inline = string | { strong: boolean; text: string } | { href: string; text: string }

// Letters, digits and marks of any script, spaces and newlines, emphasis marks, and punctuation that is no other
// Markdown syntax and cannot start a link: no `[]<>&\`~|#=+@:/$%^{}`, no tab or carriage return, no symbols.
// Links are taken out before this is tested.
const PROSE_CHARACTER = /^[\p{L}\p{N}\p{M} \n,;'"?!().\-*_，。、；：？！（）「」『』《》“”‘’—…·]$/u
// Where those characters still make syntax: a line that starts with a space (indented code), a dash (a list, a
// rule, a heading's underline), a number and `.` or `)` (an ordered list), an emphasis mark and a space (a list),
// or holds only emphasis marks and spaces (a rule); a space before a line's end (a hard break); a dot not followed
// by a space, a line's end or closing punctuation, and the words `www` and `localhost` (hosts without a scheme:
// linkify-it 6 does not look for them unless told to, and these rules do not count on it).
const SYNTAX =
  /(?:^|\n)(?:[ -]|\d+[.)]|[*_](?:[ \n]|$)|(?:[*_] *)+(?:\n|$))| \n| $|\.(?![ \n.*_)"'!?,;]|$)|www|localhost/i
// An inline link to a plain http(s) address, whose text is prose without emphasis; markdown-it writes such an
// address as it is (no escapes, no punycode). Text of another kind, or an address of another kind, is left to it.
const LINK = /\[([^[\]\n*_]+)\]\((https?:\/\/[a-z0-9]+(?:[.-][a-z0-9]+)*(?:\/[A-Za-z0-9._~-]*)*)\)/g
// markdown-it's URL parser drops a host longer than 255 characters: a long address is left to it.
const MAX_ADDRESS = 200
const PUNCTUATION = /[\p{P}\p{S}]/u
const MARK = /[*_]/g

/** The paragraphs of `markdown`, each as its pieces, when it is prose (see above); else undefined. */
export function readProse(markdown: string): Inline[][] | undefined {
  const links = markdown.includes('[') ? [...markdown.matchAll(LINK)] : []
  let masked = markdown
  if (links.length > 0) {
    for (const link of links)
      if (markdown[link.index - 1] === '!' || link[2]!.length > MAX_ADDRESS || !isProse(link[1]!)) return undefined
    masked = markdown.replace(LINK, 'x')
  }
  if (!isProse(masked)) return undefined
  const paragraphs: Inline[][] = []
  const marks = markFinder(markdown)
  let linkAt = 0
  // Paragraphs are apart by a blank line: prose has no line of spaces.
  for (let start = 0; start < markdown.length; ) {
    const blank = markdown.indexOf('\n\n', start)
    const end = blank === -1 ? markdown.length : blank
    const pieces = readInline(markdown, start, end, links, linkAt, marks)
    if (pieces === undefined) return undefined
    if (pieces.length > 0) paragraphs.push(pieces)
    while (linkAt < links.length && links[linkAt]!.index < end) linkAt++
    start = end + 2
  }
  return paragraphs
}

function isProse(text: string): boolean {
  return isProseCharacters(text) && !SYNTAX.test(text)
}

// Whether each character of the Basic Multilingual Plane is one prose is made of (1) or not (2), found once by
// PROSE_CHARACTER; a regular expression over the whole text with Unicode classes took ~2.6 µs a description.
const PROSE_BMP = new Uint8Array(0x10000)

function isProseCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    let kind = PROSE_BMP[code]!
    if (kind === 0) kind = PROSE_BMP[code] = PROSE_CHARACTER.test(String.fromCharCode(code)) ? 1 : 2
    if (kind === 1) continue
    // A letter, digit or mark beyond it is a pair of surrogates.
    const point = text.codePointAt(i)!
    if (point <= 0xffff || !PROSE_CHARACTER.test(String.fromCodePoint(point))) return false
    i++
  }
  return true
}

/**
 * The pieces of the paragraph `markdown.slice(from, to)` (newlines at its ends left out), with links from
 * `links[linkAt]` on. Emphasis marks are read as markdown-it reads them (whether a run of marks may open or close
 * by what is on either side, `*` inside words, `_` not), and only in the simplest arrangement: each run that
 * opens is closed by the next run, of the same marks, and nothing else is between; a run that can open nothing
 * is text. Anything else (three marks, nesting, a mark left open, emphasis around a link) is left to markdown-it.
 */
function readInline(
  markdown: string,
  from: number,
  to: number,
  links: RegExpExecArray[],
  linkAt: number,
  marks: MarkFinder,
) {
  while (markdown.charCodeAt(from) === 10) from++
  while (to > from && markdown.charCodeAt(to - 1) === 10) to--
  const pieces: Inline[] = []
  let textFrom = from
  let open: { mark: string; at: number } | undefined
  const text = (end: number) => {
    if (end > textFrom) pieces.push(markdown.slice(textFrom, end))
  }
  let mark = marks(from, to)
  for (let link = links[linkAt]; ; link = links[linkAt]) {
    const linkFrom = link === undefined || link.index >= to ? to : link.index
    if (mark >= to && linkFrom >= to) break
    if (linkFrom < mark) {
      if (open) return undefined
      text(linkFrom)
      pieces.push({ href: link![2]!, text: link![1]! })
      textFrom = linkFrom + link![0].length
      linkAt++
      // A mark inside the link's address is no mark.
      if (mark < textFrom) mark = marks(textFrom, to)
      continue
    }
    const char = markdown[mark]!
    let end = mark
    while (markdown[end] === char) end++
    const run = markdown.slice(mark, end)
    if (run.length > 2) return undefined
    const { opens, closes } = flanks(markdown, mark, end, from, to, char === '*')
    if (open) {
      if (run !== open.mark || !closes) return undefined
      pieces.push({ strong: run.length === 2, text: markdown.slice(open.at, mark) })
      open = undefined
      textFrom = end
    } else if (opens) {
      text(mark)
      open = { mark: run, at: end }
    }
    mark = marks(end, to)
  }
  if (open) return undefined
  text(to)
  return pieces
}

/**
 * The next emphasis mark at or after `at` (`to` when there is none before the text's end). A search runs to the
 * text's next mark, wherever it is: paragraphs without marks ahead of it would each scan to it again (quadratic:
 * 12 s for 256 KB of short paragraphs before one `_`), so the last search's answer is kept and reused for every
 * position before it. One per text read (`readProse`).
 */
function markFinder(markdown: string): MarkFinder {
  let searchedFrom = Number.POSITIVE_INFINITY
  let found = -1
  const find = (at: number, to: number) => {
    if (at < searchedFrom || (found !== -1 && at > found)) {
      MARK.lastIndex = at
      found = MARK.exec(markdown)?.index ?? -1
      searchedFrom = at
    }
    return found === -1 ? to : found
  }
  return find
}

type MarkFinder = (at: number, to: number) => number

/** Whether the run of marks `markdown.slice(start, end)` may open and close emphasis (CommonMark's flanking rules). */
function flanks(markdown: string, start: number, end: number, from: number, to: number, inWords: boolean) {
  const before = start === from ? ' ' : String.fromCodePoint(codePointBefore(markdown, start))
  const after = end === to ? ' ' : String.fromCodePoint(markdown.codePointAt(end)!)
  const spaceBefore = before === ' ' || before === '\n'
  const spaceAfter = after === ' ' || after === '\n'
  const punctuationBefore = PUNCTUATION.test(before)
  const punctuationAfter = PUNCTUATION.test(after)
  const left = !spaceAfter && (!punctuationAfter || spaceBefore || punctuationBefore)
  const right = !spaceBefore && (!punctuationBefore || spaceAfter || punctuationAfter)
  return {
    opens: left && (inWords || !right || punctuationBefore),
    closes: right && (inWords || !left || punctuationAfter),
  }
}

function codePointBefore(text: string, at: number): number {
  const low = text.charCodeAt(at - 1)
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.codePointAt(at - 2)! : low
}

/** The HTML markdown-it makes of prose (see `readProse`), or undefined for any other text. */
export function proseHtml(markdown: string): string | undefined {
  const paragraphs = readProse(markdown)
  if (paragraphs === undefined) return undefined
  let html = ''
  for (const pieces of paragraphs) {
    html += '<p>'
    for (const piece of pieces) html += pieceHtml(piece)
    html += '</p>\n'
  }
  return html
}

/** The plain text of prose as `plainText` makes it (paragraphs apart by a blank line, a link's address after its text). */
export function proseText(markdown: string): string | undefined {
  const paragraphs = readProse(markdown)
  if (paragraphs === undefined) return undefined
  const text = (piece: Inline) =>
    typeof piece === 'string' ? piece : 'href' in piece ? `${piece.text} (${piece.href})` : piece.text
  return paragraphs.map((pieces) => pieces.map(text).join('')).join('\n\n')
}

function pieceHtml(piece: Inline): string {
  if (typeof piece === 'string') return escapeQuotes(piece)
  const text = escapeQuotes(piece.text)
  if ('href' in piece) return `<a href="${piece.href}">${text}</a>`
  return piece.strong ? `<strong>${text}</strong>` : `<em>${text}</em>`
}

/** Prose holds no `&`, `<` or `>`: only `"` is escaped, as markdown-it escapes it. */
function escapeQuotes(text: string): string {
  return text.includes('"') ? text.replaceAll('"', '&quot;') : text
}
