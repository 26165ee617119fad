// The series section: the same tree generated again with BENCH_SERIES weekly open-ended series (500; 0 skips
// the section), measured whole, and set next to the numbers of the tree without them.
import { join } from 'node:path'
import { type Corpus, generateContent } from '../common/content.ts'
import { envNumber, type LoadSettings } from '../common/load.ts'
import { log } from '../common/run.ts'
import { formatSeries } from './report.ts'
import { measureTree, type TreeNumbers } from './tree.ts'

/** What the section keeps in the JSON: reported numbers, not goals. */
export interface SeriesResult {
  reportedOnly: true
  series: number
  /** Events the lists show with the series, less those without: the occurrences served. */
  occurrences: number
  without: TreeNumbers
  with: TreeNumbers
}

/** BENCH_SERIES: how many series the section adds (500); 0 skips it. */
export function seriesCount(): number {
  return Math.round(envNumber('BENCH_SERIES', 500))
}

/** Edits of one series after the full build: BENCH_BUILD (10), at most 3 (each rewrites its occurrences' files). */
export function seriesEdits(): number {
  return Math.min(3, envNumber('BENCH_BUILD', 10))
}

/** Generates `corpus`'s events again at its clock, with the series, and measures that tree (left in `tmp`). */
export async function measureWithSeries(
  corpus: Corpus,
  settings: LoadSettings,
  tmp: string,
  count: number,
): Promise<TreeNumbers> {
  const dir = join(tmp, `content-series-${count}`)
  log(`series section: generating ${corpus.events.toLocaleString('en')} events and ${count} weekly series …`)
  const withSeries = await generateContent(dir, corpus.events, corpus.now, count)
  return await measureTree(withSeries, settings, tmp, seriesEdits())
}

/** The section's JSON and its text. */
export function seriesSection(without: TreeNumbers, withSeries: TreeNumbers): { result: SeriesResult; text: string } {
  const result: SeriesResult = {
    reportedOnly: true,
    series: withSeries.content.series,
    occurrences: withSeries.served - without.served,
    without,
    with: withSeries,
  }
  return { result, text: formatSeries(without, withSeries) }
}
