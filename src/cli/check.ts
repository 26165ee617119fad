import { relative } from 'node:path'
import { requireContentFolder, warnIfEmpty } from './content-folder.ts'
import { configNote, settings } from './settings.ts'
import { checkContent } from '../content/check.ts'
import { byPathOrder, problemLine, type Problem } from '../content/checks/problems.ts'
import { escapeUnsafe } from '../content/schema/show.ts'
import { CliError } from './errors.ts'

const FORMATS = ['text', 'github', 'json'] as const

/** `almanac check`: validates the content tree; exit code 1 when it has errors (warnings do not count). */
export async function check(flags: Record<string, string | boolean | undefined>): Promise<number> {
  const format = (flags.format ?? 'text') as (typeof FORMATS)[number]
  if (!FORMATS.includes(format)) throw new CliError(`check: --format must be ${FORMATS.join(', ')}`)
  const { config, file, warnings } = settings(flags)
  requireContentFolder(config.content)
  console.error(configNote(file))
  // The summary counts every warning printed: the config file's and an empty folder's too.
  const printed = warnings.length + (warnIfEmpty(config.content) ? 1 : 0)
  const { problems, fixed } = await checkContent(config.content, flags.fix === true, config.timezone)
  const where = (problem: Problem) => relative(process.cwd(), `${config.content}/${problem.path}`) || problem.path
  const base = relative(process.cwd(), config.content)
  for (const change of fixed) console.error(`fixed ${base === '' ? '' : `${base}/`}${change}`)
  const sorted = [...problems].sort((a, b) => byPathOrder(where(a), where(b)) || (a.line ?? 1) - (b.line ?? 1))
  if (format === 'json') {
    console.log(
      JSON.stringify(
        sorted.map((p) => ({ file: where(p), line: p.line ?? 1, severity: p.severity ?? 'error', message: p.message })),
        null,
        2,
      ),
    )
  } else {
    for (const p of sorted) {
      const severity = p.severity ?? 'error'
      if (format === 'github') console.log(githubAnnotation(severity, where(p), p.line ?? 1, p.message))
      else console.log(problemLine(where(p), p))
    }
  }
  const errors = sorted.filter((p) => (p.severity ?? 'error') === 'error').length
  const warned = sorted.length - errors + printed
  if (format !== 'json')
    console.error(`${errors} error${errors === 1 ? '' : 's'}, ${warned} warning${warned === 1 ? '' : 's'}`)
  return errors > 0 ? 1 : 0
}

/**
 * A GitHub Actions annotation, escaped as the runner reads them: a file named in a pull request
 * (`x\n::warning file=README.md::…`) must not forge a workflow command of its own.
 */
export function githubAnnotation(severity: string, file: string, line: number, message: string): string {
  // Line breaks as the runner decodes them, then every other control character escaped as the text format shows it:
  // an escape sequence in a file name must not reach the log viewer, which colours by them.
  const data = (text: string) => escapeUnsafe(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'))
  const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
  return `::${severity} file=${property(file)},line=${line}::${data(message)}`
}
