import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

// What Netlify and Cloudflare Pages do with the `_headers` and `_redirects` files the build writes,
// for `almanac preview`: enough of their format to serve dist/ as they would.

/** A path pattern (`*` matches the rest) and what it adds or where it leads. */
interface Rule {
  pattern: RegExp
}
export interface HeaderRule extends Rule {
  headers: [string, string][]
}
export interface RewriteRule extends Rule {
  to: string
}

export interface HostRules {
  headers: HeaderRule[]
  rewrites: RewriteRule[]
}

/** The rules in `root`'s `_headers` and `_redirects`; none when a file is missing. */
export async function readHostRules(root: string): Promise<HostRules> {
  const text = (name: string) => readFile(join(root, name), 'utf8').catch(() => '')
  return { headers: parseHeaders(await text('_headers')), rewrites: parseRedirects(await text('_redirects')) }
}

/** `_headers`: a path on its own line, then its headers indented, `Name: value`. */
export function parseHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = []
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue
    const header = /^\s+([^:\s]+):\s*(.*)$/.exec(line)
    if (header && rules.length > 0) rules[rules.length - 1]!.headers.push([header[1]!, header[2]!.trim()])
    else if (!/^\s/.test(line)) rules.push({ pattern: patternOf(line.trim()), headers: [] })
  }
  return rules
}

/** `_redirects`: `from to status`; only 200 rewrites are kept (the build writes no other kind). */
export function parseRedirects(text: string): RewriteRule[] {
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length >= 3 && parts[2] === '200' && !parts[0]!.startsWith('#'))
    .map(([from, to]) => ({ pattern: patternOf(from!), to: to! }))
}

/** The headers every matching rule adds to `path`, in the order the file gives them. */
export function headersFor(rules: HeaderRule[], path: string): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const rule of rules) if (rule.pattern.test(path)) for (const [name, value] of rule.headers) headers[name] = value
  return headers
}

/** Where the first matching rewrite leads `path` (`:splat` is what `*` matched), if one does. */
export function rewrite(rules: RewriteRule[], path: string): string | undefined {
  for (const rule of rules) {
    const found = rule.pattern.exec(path)
    if (found) return rule.to.replace(':splat', found[1] ?? '')
  }
  return undefined
}

/**
 * A whole-path pattern: `*` matches anything (captured as the splat), a `:name` placeholder one segment (as in
 * `/:kind/:id/events.ics`), the rest literally.
 */
function patternOf(path: string): RegExp {
  const literal = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  const parts = path.split('*').map((part) =>
    part
      .split(/(:[A-Za-z]\w*)/)
      .map((piece, i) => (i % 2 === 1 ? '[^/]+' : literal(piece)))
      .join(''),
  )
  return new RegExp(`^${parts.join('(.*)')}$`)
}
