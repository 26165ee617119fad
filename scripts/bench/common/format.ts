// Number and table formatting shared by the report's sections.
import type { LoadResult } from './load.ts'

/** Left-aligned first column, right-aligned numbers: easy to scan in a terminal. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => [...(row[col] ?? '')].length)))
  return rows
    .map((row) =>
      row
        .map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

/** Responses, errors, timeouts and non-2xx of one load run, in one line. */
export function failures(r: LoadResult): string {
  return `${int(r.requests)} responses, ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`
}

/** ✓ or ✗ against a budget. */
export function mark(ok: boolean): string {
  return ok ? '✓' : '✗'
}

/** A rounded integer with thousands separators. */
export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

/** Milliseconds: one decimal below 10, whole above. */
export function ms(n: number): string {
  return n < 10 ? `${n.toFixed(1)} ms` : `${int(n)} ms`
}

/** Milliseconds with three decimals (microsecond resolution), for in-process timings. */
export function ms3(n: number): string {
  return `${n.toFixed(3)} ms`
}

/** Megabytes, whole. */
export function mb(n: number): string {
  return `${int(n)} MB`
}

/** Seconds with one decimal. */
export function seconds(n: number): string {
  return `${(n / 1000).toFixed(1)} s`
}

/** A ratio as a whole percentage. */
export function pct(n: number): string {
  return `${Math.round(n * 100)}%`
}

/** A blank line and what a server printed besides its banner, when it printed anything. */
export function warningLines(which: string, lines: string[]): string[] {
  return lines.length > 0 ? ['', `${which} printed ${lines.length} warning line(s), first: ${lines[0]}`] : []
}
