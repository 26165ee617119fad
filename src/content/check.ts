import { LANGUAGES } from '../languages.ts'
import { parseFrontMatter, splitFile } from './files/front-matter.ts'
import { spansOf } from './files/front-matter-spans.ts'
import { reorderFrontMatter, stringifyFrontMatter } from './files/front-matter-write.ts'
import { KEY_ORDER, KINDS, type Kind } from './model/kinds.ts'
import { isRecordFileName, parseContentPath } from './files/paths.ts'
import { exhaustedIdMarks, lineOf, missingSlugWarning, noSuggestions, strayTrashedFrom } from './check-hand-edits.ts'
import type { Problem } from './checks/problems.ts'
import { normalize } from './files/normalize.ts'
import { RECORD_NOUN } from './schema/records.ts'
import { showValue } from './schema/show.ts'
import { isUrlWithHost } from './schema/web-address.ts'
import { createStore, type ContentRecord, type Store } from './store.ts'
import { createDiskDriver } from './store/disk-driver.ts'
import type { ContentDriver } from './store/driver.ts'
import { unstableDateWarning, writeDate } from './check-dates.ts'

/** What `almanac check` found, and what `--fix` changed. */
export interface CheckResult {
  problems: Problem[]
  fixed: string[]
}

const RELATIONS = [
  ['venue', 'venues'],
  ['organizer', 'organizers'],
  ['categories', 'categories'],
  ['tags', 'tags'],
] as const

/**
 * Checks a content tree (a folder, or any driver) the way the server loads it, plus what only the
 * whole tree shows; `fix` writes through the same driver, as the server does. Series are read in the
 * site's zone and served up to the horizon `now` places, as the server would serve them now.
 */
export async function checkContent(
  source: string | ContentDriver,
  fix: boolean,
  siteZone = 'UTC',
  now: () => number = Date.now,
): Promise<CheckResult> {
  const problems: Problem[] = []
  const fixed: string[] = []
  const driver = typeof source === 'string' ? createDiskDriver(source) : source
  const store = await createStore(driver, {
    defaultLanguage: 'en',
    fallback: true,
    assignIds: fix,
    onIdGiven: (path, id) => fixed.push(`${path}: id ${id} given`),
    timezone: siteZone,
    now,
    onProblem: (problem) => problems.push({ severity: 'error', line: 1, ...problem }),
  })
  for (const problem of problems) {
    if (
      problem.message.startsWith('no file of this record has an id') &&
      /\.en\.md$|^[^.]+\.md$/.test(problem.path.split('/')[1] ?? '')
    ) {
      problem.message = 'a source file needs an id (almanac check --fix gives it the next free one)'
    }
  }
  const text = async (path: string) => driver.peek(path) ?? ''
  const suggested = noSuggestions()
  for (const kind of KINDS) {
    for (const record of store.list(kind)) {
      problems.push(...missingSlugWarning(record, store, suggested))
      problems.push(
        ...relationProblems(store, kind, record.source.path, record.source.data, await text(record.source.path)),
      )
      problems.push(...translationWarnings(record))
      problems.push(...strayTrashedFrom(record, await text(record.source.path)))
      if (fix) fixed.push(...(await writeDate(driver, record, siteZone, await text(record.source.path))))
      else problems.push(...unstableDateWarning(record))
      if (fix) fixed.push(...(await putKeysInOrder(driver, record, text)))
    }
  }
  problems.push(
    ...(await brokenSourceRelations(store, problems, text)),
    ...caseTwinWarnings(store),
    ...folderWarnings(driver),
    ...hiddenWarnings(driver),
    ...exhaustedIdMarks(driver),
  )
  return { problems, fixed }
}

/**
 * The relations of sources the store refused (a wrong type, a bad date…) are checked too, so that
 * one run names every problem of a file, not one kind of problem per run.
 */
async function brokenSourceRelations(
  store: Store,
  problems: Problem[],
  text: (path: string) => Promise<string>,
): Promise<Problem[]> {
  const loaded = new Set(
    KINDS.flatMap((kind) => store.list(kind).flatMap((record) => [...record.files.values()].map((file) => file.path))),
  )
  const broken = new Set(
    problems.filter((p) => (p.severity ?? 'error') === 'error' && !loaded.has(p.path)).map((p) => p.path),
  )
  const found: Problem[] = []
  for (const path of broken) {
    const address = parseContentPath(path, 'en')
    if (typeof address === 'string') continue
    const content = await text(path)
    let data: Record<string, unknown>
    try {
      const parsed = parseFrontMatter(content)
      data = normalize(parsed.data, parsed.written)
    } catch {
      continue
    }
    if (data.id !== undefined || address.lang === 'en')
      found.push(...relationProblems(store, address.kind, path, data, content))
  }
  return found
}

/** Ids that name nothing, a parent that is not a category, an image that is not in content/media. */
function relationProblems(
  store: Store,
  kind: Kind,
  path: string,
  data: Record<string, unknown>,
  text: string,
): Problem[] {
  const found: Problem[] = []
  const report = (field: string, message: string) =>
    found.push({ path, line: lineOf(text, field), message, severity: 'error' })
  if (kind === 'events') {
    for (const [field, target] of RELATIONS) {
      const ids = Array.isArray(data[field]) ? (data[field] as unknown[]) : []
      for (const id of ids)
        if (typeof id === 'number' && Number.isInteger(id) && id > 0 && !store.get(target, id))
          report(field, `${field}: ${id} is not the id of ${RECORD_NOUN[target]} in content/${target}`)
    }
  }
  if (
    kind === 'categories' &&
    typeof data.parent === 'number' &&
    data.parent > 0 &&
    !store.get('categories', data.parent)
  ) {
    report('parent', `parent: ${data.parent} is not the id of a category in content/categories`)
  }
  const image = data.image
  if (typeof image === 'string' && /^https?:\/\//i.test(image) && !isUrlWithHost(image))
    report('image', `image: ${showValue(image)} is not a URL, so the record is served without an image`)
  if (
    (typeof image === 'string' && image !== '' && !/^https?:\/\//i.test(image)) ||
    (typeof image === 'number' && Number.isInteger(image))
  ) {
    const media =
      typeof image === 'number' || /^\d+$/.test(image)
        ? store.media.byId(Number(image))
        : store.media.byPath(image.replace(/^(content\/)?media\//, ''))
    if (!media) report('image', `image: ${showValue(image)} is not in content/media`)
  }
  return found
}

/**
 * Files whose paths differ only in case (`events/Jazz.en.md`, `events/jazz.en.md`): two records here, one file on
 * a macOS or Windows checkout, which keeps whichever git writes last. A warning on each after the first.
 */
function caseTwinWarnings(store: Store): Problem[] {
  const first = new Map<string, string>()
  const found: Problem[] = []
  const paths = KINDS.flatMap((kind) => store.list(kind).flatMap((record) => [...record.files.values()]))
    .map((file) => file.path)
    .sort()
  for (const path of paths) {
    const twin = first.get(path.toLowerCase())
    if (twin === undefined) first.set(path.toLowerCase(), path)
    else {
      const message = `differs from ${twin} only in case: on macOS and Windows the two are one file, and a checkout keeps one of them`
      found.push({ path, line: 1, message, severity: 'warning' })
    }
  }
  return found
}

/** Folders inside a kind folder: records are the files right in it, so nothing in one is read (hidden ones aside). */
function folderWarnings(driver: ContentDriver): Problem[] {
  // A kind folder that is a link is not read at all (the store reports it): nothing inside it is looked at.
  return KINDS.flatMap((kind) =>
    (driver.isLink(kind) ? [] : (driver.list(kind) ?? []))
      .filter((name) => !name.startsWith('.') && !isRecordFileName(name) && driver.list(`${kind}/${name}`) !== null)
      .map((name) => ({
        path: `${kind}/${name}`,
        line: 1,
        message: `is a folder: records are the files right in ${kind}/, so nothing in it is read`,
        severity: 'warning' as const,
      })),
  )
}

/** Hidden Markdown files in a kind folder: neither check nor the server reads them, which an editor may not expect. */
function hiddenWarnings(driver: ContentDriver): Problem[] {
  return KINDS.flatMap((kind) =>
    (driver.isLink(kind) ? [] : (driver.list(kind) ?? []))
      .filter((name) => name.startsWith('.') && name.endsWith('.md'))
      .map((name) => ({
        path: `${kind}/${name}`,
        line: 1,
        message: 'is hidden (its name starts with a dot), so it is not read as a record',
        severity: 'warning' as const,
      })),
  )
}

/** A record translated into some languages but not all: a warning, not an error. */
function translationWarnings(record: ContentRecord): Problem[] {
  if (record.files.size === 1) return []
  const missing = LANGUAGES.filter((lang) => !record.files.has(lang))
  return missing.length === 0
    ? []
    : [{ path: record.source.path, line: 1, message: `no translation in ${missing.join(', ')}`, severity: 'warning' }]
}

/** `--fix`: rewrites a file whose keys are out of the usual order; values read back exactly as before. */
async function putKeysInOrder(
  driver: ContentDriver,
  record: ContentRecord,
  text: (path: string) => Promise<string>,
): Promise<string[]> {
  const changed: string[] = []
  for (const file of record.files.values()) {
    const current = await text(file.path)
    const { data, body, written } = parseFrontMatter(current)
    const order = KEY_ORDER[record.kind]
    // The keys as the file holds them: JavaScript lists a key such as `2024` first, wherever it is written.
    const block = splitFile(current)?.block ?? ''
    const keys = spansOf(block, block.split('\n'))?.map((span) => span.key) ?? Object.keys(data)
    const sorted = [...order.filter((k) => keys.includes(k)), ...keys.filter((k) => !order.includes(k))]
    if (keys.join() === sorted.join()) continue
    // Written afresh only when the lines cannot be moved as they are: with every value as served (`zip: 012345` is
    // "012345", not the octal YAML reads), so that nothing changes but the order.
    const fresh = () => stringifyFrontMatter(normalize(data, written), body, order)
    await driver.write(file.path, reorderFrontMatter(current, order) ?? fresh())
    changed.push(`${file.path}: keys put in order`)
  }
  return changed
}
