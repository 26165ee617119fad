import { defineCommand, type ArgDef, type ArgsDef, type CommandDef } from 'citty'
import { didYouMean } from '../suggest.ts'

/** The options several commands share, as citty declares them (no defaults here: those come from the settings). */
export const ARGS = {
  config: {
    type: 'string',
    valueHint: 'FILE',
    description: 'settings file (default: the first almanac.config.yaml from here upward)',
  },
  content: { type: 'string', valueHint: 'DIR', description: 'the content tree (default ./content)' },
  out: { type: 'string', valueHint: 'DIR', description: 'where the static files go (default ./dist)' },
  port: { type: 'string', valueHint: 'N', description: 'port to listen on; 0 takes any free port' },
  host: { type: 'string', valueHint: 'HOST', description: 'address to listen on (default localhost)' },
  users: { type: 'string', valueHint: 'FILE', description: 'the users file (default ./.almanac/users.yaml)' },
  quiet: { type: 'boolean', description: 'no request log (also ALMANAC_QUIET=1)' },
} as const satisfies ArgsDef

/** The switches of a static build (`build`, `serve --build`), as citty declares them. */
export const BUILD_SWITCHES = {
  'wide-pages': {
    type: 'boolean',
    description: 'also write every event list page at per_page=50, for bulk consumers (off by default: +25% bytes)',
  },
  'slug-pages': {
    type: 'boolean',
    description:
      'write every record by slug too (default: while the site stays under 1 GB; --no-slug-pages: never; slugs.json maps slugs to ids)',
  },
  languages: {
    type: 'string',
    valueHint: 'LIST',
    description: 'write only these languages, e.g. en,ms (default: all four)',
  },
  feeds: {
    type: 'boolean',
    description:
      "write iCalendar feeds of every category, tag, venue and organizer too (default: while the site stays under 1 GB; --no-feeds: not even the calendar's)",
  },
} as const satisfies ArgsDef

type Flags = Record<string, string | boolean | undefined>

/** A command whose run hands the declared flags, as plain data, to `action` and answers its exit code. */
export function command<T extends ArgsDef>(
  name: string,
  description: string,
  args: T,
  action: (flags: Flags) => Promise<number> | number,
): CommandDef<T> {
  return defineCommand({
    meta: { name: `almanac ${name}`, description },
    args,
    run: ({ args: parsed }) => action(flagsOf(parsed, args)),
  })
}

/** The parsed values of the declared args only, as plain data (citty's object also answers camelCase names). */
export function flagsOf(args: Record<string, unknown>, defs: ArgsDef): Record<string, string | boolean | undefined> {
  const flags: Record<string, string | boolean | undefined> = {}
  for (const name of Object.keys(defs)) {
    const value = args[name]
    if (typeof value === 'string' || typeof value === 'boolean') flags[name] = value
  }
  return flags
}

/**
 * The first mistake in a command's arguments (unknown option, missing value, missing or extra argument), or
 * undefined.
 */
export function mistakeIn(tokens: string[], defs: ArgsDef): string | undefined {
  const options = new Map(Object.entries(defs).filter(([, def]) => def.type !== 'positional'))
  const positionals = Object.entries(defs)
    .filter(([, def]) => def.type === 'positional')
    .map(([name]) => name)
  let count = 0
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token === '--') {
      count += tokens.length - i - 1
      break
    }
    if (token.startsWith('-') && token !== '-') {
      const problem = optionProblem(token, tokens[i + 1], options)
      if (typeof problem === 'string') return problem
      i += problem
      continue
    }
    if (++count > positionals.length) return `unexpected argument ${JSON.stringify(token)}`
  }
  return count < positionals.length ? `${positionals[count]!.toUpperCase()} is missing` : undefined
}

/** What is wrong with one option, or how many following tokens it takes as its value (0 or 1). */
function optionProblem(token: string, next: string | undefined, options: Map<string, ArgDef>): string | number {
  if (!token.startsWith('--')) return `unknown option ${token}`
  const [name = '', value] = splitOnce(token.slice(2), '=')
  const def = options.get(name) ?? negated(name, options)
  if (!def) return `unknown option --${name}${didYouMean(name, [...options.keys()], (known) => `--${known}`)}`
  if (def.type === 'boolean' || value !== undefined) return 0
  if (next === undefined || (next.startsWith('-') && next !== '-')) return `--${name} needs a value`
  return 1
}

/** `--no-watch` for a declared switch `watch`. */
function negated(name: string, options: Map<string, ArgDef>): ArgDef | undefined {
  const def = name.startsWith('no-') ? options.get(name.slice(3)) : undefined
  return def?.type === 'boolean' ? def : undefined
}

function splitOnce(text: string, separator: string): [string, string?] {
  const at = text.indexOf(separator)
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)]
}
