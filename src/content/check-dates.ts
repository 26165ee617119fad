import { isDeepStrictEqual } from 'node:util'
import { postDates } from './model/derive.ts'
import { parseFrontMatter, splitFile } from './files/front-matter.ts'
import { updateFrontMatter } from './files/front-matter-write.ts'
import { isTermKind, KEY_ORDER } from './model/kinds.ts'
import type { Problem } from './checks/problems.ts'
import { normalize } from './files/normalize.ts'
import type { ContentRecord } from './model/record-types.ts'
import type { ContentDriver } from './store/driver.ts'

/** Whether a record is served with a publication date its file does not hold. */
export function isUndated(record: ContentRecord): boolean {
  return !isTermKind(record.kind) && record.source.data.date === undefined && record.source.undatedBy !== undefined
}

/**
 * A source without `date` that git does not date (no repository, or the file is not committed):
 * its publication date is the file's mtime, which a clone or a copy changes. A warning.
 */
export function unstableDateWarning(record: ContentRecord): Problem[] {
  if (!isUndated(record) || record.source.undatedBy !== 'mtime') return []
  const message =
    'date is not set and git cannot date this file (no repository, not committed yet, or a shallow clone that ' +
    "lacks the commit adding it), so its publication date is the file's modification time, which is different on every clone; " +
    'almanac check --fix writes it down (in CI, fetch the whole history: fetch-depth: 0)'
  return [{ path: record.source.path, line: 1, message, severity: 'warning' }]
}

/** `--fix`: writes the publication date the server derives (site time zone) into a source that has none. */
export async function writeDate(
  driver: ContentDriver,
  record: ContentRecord,
  siteZone: string,
  text: string,
): Promise<string[]> {
  if (!isUndated(record)) return []
  const date = postDates(record, siteZone).date
  const { data, body, written } = parseFrontMatter(text)
  if (data.date !== undefined) return []
  // Every other value as served (`zip: 012345` is "012345"), so that a line rewritten says what it said.
  const updated =
    withDateLine(text, date, KEY_ORDER[record.kind]) ??
    updateFrontMatter(text, { ...normalize(data, written), date }, body, KEY_ORDER[record.kind], normalize)
  await driver.write(record.source.path, updated)
  const from = record.source.undatedBy === 'git' ? 'when git added the file' : "the file's modification time"
  return [`${record.source.path}: date ${date} written (${from})`]
}

/**
 * Adds one `date:` line where the key order puts it (before the first top-level key that comes
 * after `date`), changing nothing else: the fence, comments and quoting stay as the editor wrote
 * them. Null when the file, read back, would not be the same record plus its date.
 */
function withDateLine(text: string, date: string, order: readonly string[]): string | null {
  const parts = splitFile(text)
  if (!parts) return null
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length)
  // Lines as the file ends each (a CRLF line keeps its `\r`, mixed line ends stay mixed); the new line ends as the one
  // before it (the block's last line ends before the closing fence's `\n`, with its `\r` in a CRLF file).
  const lines = parts.block.split('\n')
  let at = lines.findIndex(
    (line, i) => i > 0 && rank(/^([A-Za-z_][\w-]*)[ \t]*:/.exec(line)?.[1] ?? 'date') > rank('date'),
  )
  if (at === -1) at = lines.length
  lines.splice(at, 0, `date: ${date}${lines[at - 1]?.endsWith('\r') ? '\r' : ''}`)
  const block = lines.join('\n')
  const next = text.slice(0, parts.blockStart) + block + text.slice(parts.blockEnd)
  try {
    const [before, after] = [parseFrontMatter(text), parseFrontMatter(next)]
    return isDeepStrictEqual({ ...before.data, date }, after.data) && before.body === after.body ? next : null
  } catch {
    return null
  }
}
