// How the generated content is written: Markdown files with YAML front matter, from plain values and nested maps
// (a series' recurrence and overrides), and the small seeded draws the generators share.
import { SENTENCES, type BenchLang } from './words.ts'

/** One file of the tree, relative to the content folder. */
export interface OutFile {
  path: string
  text: string
}

type Scalar = string | number | boolean
/** Front matter: scalars, flow lists, and maps (written as indented blocks). */
export interface Fields {
  [key: string]: Scalar | Scalar[] | Fields | undefined
}

/** The id ranges of the linked records every event draws from. */
export const VENUES = { first: 1, last: 200 }
export const ORGANIZERS = { first: 201, last: 400 }
export const CATEGORIES = { first: 1, last: 30 }
export const TAGS = { first: 31, last: 80 }

export const DAY = 86_400_000
export const HOUR = 3_600_000

/** Sentence indices per paragraph, shared by every language so translations mirror the source. */
export function bodyPlan(rng: () => number, paragraphs: number): number[][] {
  return Array.from({ length: paragraphs }, () => distinct(rng, { first: 0, last: 7 }, 2 + pick(rng, 2)))
}

export function markdown(lang: BenchLang, plan: number[][]): string {
  return plan.map((paragraph) => paragraph.map((i) => SENTENCES[lang][i]).join(' ')).join('\n\n')
}

export function document(fields: Fields, body: string): string {
  return `---\n${frontMatter(fields, '').join('\n')}\n---\n${body}\n`
}

function frontMatter(fields: Fields, indent: string): string[] {
  return Object.entries(fields).flatMap(([key, value]) => {
    if (value === undefined) return []
    if (typeof value === 'object' && !Array.isArray(value))
      return [`${indent}${key}:`, ...frontMatter(value, `${indent}  `)]
    return [`${indent}${key}: ${yaml(value)}`]
  })
}

const PLAIN = /^\p{L}[^:#[\]{},"'\n]*(?<! )$/u
const WALL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
const KEYWORD = /^(true|false|yes|no|on|off|null|y|n)$/i

/** Plain scalars where YAML reads them back unchanged, quoted otherwise (zip codes, URLs, phones). */
function yaml(value: Scalar | Scalar[]): string {
  if (Array.isArray(value)) return `[${value.join(', ')}]`
  if (typeof value !== 'string') return String(value)
  return (PLAIN.test(value) && !KEYWORD.test(value)) || WALL.test(value) ? value : JSON.stringify(value)
}

/** `YYYY-MM-DD HH:MM:SS` of an instant read as a wall clock: the zone only shifts it, which is fine here. */
export function wall(instant: number): string {
  return new Date(instant).toISOString().slice(0, 19).replace('T', ' ')
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

export function pick(rng: () => number, n: number): number {
  return Math.floor(rng() * n)
}

export function distinct(rng: () => number, range: { first: number; last: number }, count: number): number[] {
  const ids = new Set<number>()
  while (ids.size < count) ids.add(range.first + pick(rng, range.last - range.first + 1))
  return [...ids].sort((x, y) => x - y)
}
