import { escapeUnsafe } from '../schema/show.ts'
import { messageLines } from './problem-lines.ts'

/** A file the store cannot use as it is, and why; `line` is 1-based when known. */
export interface Problem {
  path: string
  message: string
  line?: number
  /** Warnings (a missing translation) are reported but do not make `almanac check` fail. */
  severity?: 'error' | 'warning'
}

/** The problems of a tree, per file: each reported once, forgotten when the file is fixed. */
export interface ProblemLog {
  /** `line` is the line the messages are about, when the caller knows it; else it is found in `text`. */
  report(path: string, messages: string[], text?: string, line?: number): void
  /** Like report, for warnings: things the store read past (an unknown key), which fail nothing. */
  warn(path: string, messages: string[], text?: string, line?: number): void
  clear(path: string): void
  /** Forgets the problems of a file whose message passes `test`, keeping the others. */
  forget(path: string, test: (message: string) => boolean): void
  has(path: string): boolean
  /** The problems of one file (`list` copies every file's: a settle that asked it per file was quadratic). */
  of(path: string): readonly Problem[]
  /** Every problem, by path (`byPathOrder`), then line. */
  list(): Problem[]
  /** The paths with a problem, in no order and not copied. */
  paths(): IterableIterator<string>
}

/** The most problems told of one file (a hostile one may hold hundreds of thousands). */
export const MAX_PROBLEMS_PER_FILE = 50

/** Creates the log; `onProblem` hears each problem the first time it appears. */
export function createProblemLog(onProblem?: (problem: Problem) => void): ProblemLog {
  const byPath = new Map<string, Problem[]>()
  const add = (
    path: string,
    messages: string[],
    text: string | undefined,
    knownLine: number | undefined,
    severity: 'error' | 'warning',
  ) => {
    if (messages.length === 0) return // nearly every file, at a load: nothing to make
    const known = byPath.get(path) ?? []
    const lineOf = text === undefined ? undefined : messageLines(text)
    const told = new Set(known.map((p) => p.message))
    for (const raw of messages) {
      // A hostile file can hold hundreds of thousands of problems (`tags: [0, 0, …]`): the first are told, with
      // how many more there are, and a load or reload stays linear in the file.
      if (known.length >= MAX_PROBLEMS_PER_FILE) {
        const more = `${messages.length - messages.indexOf(raw)} more problems in this file are not listed`
        if (!told.has(more)) {
          const problem: Problem = { path, message: more }
          if (severity === 'warning') problem.severity = 'warning'
          known.push(problem)
          onProblem?.(problem)
        }
        break
      }
      const message = oneLine(raw)
      if (told.has(message)) continue
      told.add(message)
      const problem: Problem = { path, message }
      const line = knownLine ?? lineOf?.(message)
      if (line !== undefined) problem.line = line
      if (severity === 'warning') problem.severity = 'warning'
      known.push(problem)
      onProblem?.(problem)
    }
    if (known.length > 0) byPath.set(path, known)
  }
  return {
    report: (path, messages, text, line) => add(path, messages, text, line, 'error'),
    warn: (path, messages, text, line) => add(path, messages, text, line, 'warning'),
    clear: (path) => void byPath.delete(path),
    forget(path, test) {
      const kept = (byPath.get(path) ?? []).filter((problem) => !test(problem.message))
      if (kept.length > 0) byPath.set(path, kept)
      else byPath.delete(path)
    },
    has: (path) => byPath.has(path),
    paths: () => byPath.keys(),
    of: (path) => byPath.get(path) ?? [],
    // By path, then line: a running server and a restart found them in different orders, and told them so.
    list: () =>
      [...byPath.keys()]
        .sort(byPathOrder)
        .flatMap((path) => [...byPath.get(path)!].sort((a, b) => (a.line ?? 1) - (b.line ?? 1))),
  }
}

/** Paths in the order /diagnostics and `almanac check` list them: by UTF-16 code unit, the same on every machine. */
export const byPathOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** A problem as a line of output: `file:line: message`, with `warning: ` before a warning's message. */
export function problemLine(file: string, problem: Problem): string {
  return `${escapeUnsafe(file)}:${problem.line ?? 1}: ${problem.severity === 'warning' ? 'warning: ' : ''}${problem.message}`
}

/** Longest message kept: a message quoting a file shortens what it quotes, this is the last guard. */
const MAX_MESSAGE = 1000

/**
 * A message as one line: whatever a message quotes from a file (a YAML error's excerpt, a file
 * name) has its line breaks and other unsafe characters escaped, and it is cut when very long.
 */
export function oneLine(message: string): string {
  if (message.length <= MAX_MESSAGE) return escapeUnsafe(message)
  const points = Array.from(message.slice(0, MAX_MESSAGE * 2))
  return escapeUnsafe(points.length > MAX_MESSAGE ? `${points.slice(0, MAX_MESSAGE).join('')}…` : points.join(''))
}
