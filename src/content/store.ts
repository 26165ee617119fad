import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { LANGUAGES, type Lang } from '../languages.ts'
import { checkSource, checkTranslation } from '../schema/records.ts'
import { writeFileAtomic, removeFile, createQueue } from './atomic.ts'
import { parseFrontMatter, stringifyFrontMatter } from './front-matter.ts'
import { checkEvent, loadAll, normalize, stemOf } from './records.ts'
import { idSpaceOf, KEY_ORDER, KINDS, TRANSLATABLE, type Kind } from './kinds.ts'
import { loadMedia, type MediaLibrary } from './media.ts'
import { contentPath, parseContentPath, STEM } from './paths.ts'

/** One file of a record, as read from disk. */
export interface FileEntry {
  /** Path relative to the content folder, with forward slashes. */
  path: string
  lang: Lang
  data: Record<string, unknown>
  body: string
  mtimeMs: number
}

/** A record: its source file (the one with `id`) and every translation, the source included. */
export interface ContentRecord {
  kind: Kind
  id: number
  stem: string
  source: FileEntry
  files: ReadonlyMap<Lang, FileEntry>
}

/** A file the store could not use, and why. */
export interface Problem {
  path: string
  message: string
}

export interface StoreOptions {
  defaultLanguage: Lang
  /** Serve a record's source text in languages it has no file in. */
  fallback: boolean
  /** Called once per problem found; defaults to silence (the CLI logs them). */
  onProblem?: (problem: Problem) => void
}

/** The content store: every record in memory, with id and slug maps per kind and language. */
export interface Store {
  readonly dir: string
  readonly media: MediaLibrary
  readonly defaultLanguage: Lang
  /** Whether records are served in languages they have no file in (from their source). */
  readonly fallback: boolean
  /** Bumped on every change to the records, so caches can key on it. */
  readonly version: number
  list(kind: Kind): ContentRecord[]
  get(kind: Kind, id: number): ContentRecord | undefined
  /** The kind that owns an id in the post or term id space. */
  kindOfId(space: 'post' | 'term', id: number): Kind | undefined
  bySlug(kind: Kind, lang: Lang, slug: string): ContentRecord | undefined
  /** The record's fields in a language (translation over source), or null when it has none there. */
  fieldsIn(record: ContentRecord, lang: Lang): RecordFields | null
  /** The language a record is served in when asked for `lang`. */
  langOf(record: ContentRecord, lang: Lang): Lang | null
  problems(): Problem[]
  /** An id never used before in its space (ids of records deleted for good are not reused). */
  nextId(space: 'post' | 'term'): number
  /** A free file stem for a new record, from its slug when that is ASCII, else from its kind and id. */
  newStem(kind: Kind, slug: string, id: number): string
  /**
   * Writes a record's files (null removes one) atomically, one writer at a time, then updates
   * the records, slug maps and listeners before it resolves: a reader sees its own write.
   */
  commit(kind: Kind, stem: string, files: Partial<Record<Lang, FileWrite | null>>): Promise<ContentRecord | undefined>
  /**
   * Runs `work` as the only writer: what it reads cannot change under it, and its commits (several
   * records, if need be) go out one after another before any other write starts.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>
  /** Hears every change, with the record as it was and as it is (either may be absent). */
  onChange(listener: (before: ContentRecord | undefined, after: ContentRecord | undefined) => void): void
}

/** What a transaction may do: commit records without waiting for itself. */
export interface Transaction {
  commit(kind: Kind, stem: string, files: Partial<Record<Lang, FileWrite | null>>): Promise<ContentRecord | undefined>
}

/** One file to write: its front matter and its Markdown body. */
export interface FileWrite {
  data: Record<string, unknown>
  body: string
}

/** A write that would leave the tree invalid: nothing was written. */
export class CommitError extends Error {}

/** A record's fields in one language; `description` is the Markdown body. */
export type RecordFields = Record<string, unknown> & { description: string }

/** Loads the whole content tree and returns the store over it. */
export async function createStore(dir: string, options: StoreOptions): Promise<Store> {
  const entries = new Map<string, FileEntry>()
  const fileProblems = new Map<string, string[]>()
  const records = new Map<string, ContentRecord>() // `${kind}/${stem}`
  const ids = { post: new Map<number, string>(), term: new Map<number, string>() }
  const slugs = new Map<string, Map<string, ContentRecord>>() // `${kind}|${lang}` → slug → record
  const sorted = new Map<Kind, ContentRecord[]>()
  const byStem = new Map<string, Set<string>>() // `${kind}/${stem}` → paths of its files
  const listeners: ((before: ContentRecord | undefined, after: ContentRecord | undefined) => void)[] = []
  const queue = createQueue()
  let version = 0

  const report = (path: string, messages: string[]) => {
    if (messages.length === 0) return
    const known = fileProblems.get(path) ?? []
    const fresh = messages.filter((message) => !known.includes(message))
    fileProblems.set(path, [...known, ...fresh])
    for (const message of fresh) options.onProblem?.({ path, message })
  }

  const langOf = (record: ContentRecord, lang: Lang): Lang | null => {
    if (record.files.has(lang)) return lang
    return options.fallback ? record.source.lang : null
  }

  const fieldsIn = (record: ContentRecord, lang: Lang): RecordFields | null => {
    const served = langOf(record, lang)
    if (!served) return null
    const fields: RecordFields = { ...record.source.data, description: record.source.body }
    const translation = record.files.get(served)
    if (translation && translation !== record.source) {
      for (const key of TRANSLATABLE[record.kind]) {
        if (key === 'description') {
          if (translation.body) fields.description = translation.body
        } else if (translation.data[key] !== undefined) fields[key] = translation.data[key]
      }
    }
    return fields
  }

  const slugIn = (record: ContentRecord, lang: Lang): unknown => {
    const own = record.files.get(lang)?.data.slug
    if (own !== undefined) return own
    return record.files.has(lang) || options.fallback ? record.source.data.slug : undefined
  }

  const slugMap = (kind: Kind, lang: Lang) => {
    let map = slugs.get(`${kind}|${lang}`)
    if (!map) slugs.set(`${kind}|${lang}`, (map = new Map()))
    return map
  }

  const index = (record: ContentRecord, add: boolean) => {
    const space = ids[idSpaceOf(record.kind)]
    if (add) space.set(record.id, `${record.kind}/${record.stem}`)
    else space.delete(record.id)
    for (const lang of LANGUAGES) {
      const slug = slugIn(record, lang)
      if (typeof slug !== 'string' || slug === '') continue
      const map = slugMap(record.kind, lang)
      if (!add) {
        if (map.get(slug) === record) map.delete(slug)
        continue
      }
      const holder = map.get(slug)
      if (!holder) map.set(slug, record)
      // A clash is reported where a file names the slug, not again for each language it falls back to.
      else if (holder !== record && record.files.has(lang)) {
        report(record.files.get(lang)!.path, [`slug "${slug}" (${lang}) is already used by ${holder.files.get(lang)?.path ?? holder.source.path}`])
      }
    }
  }

  const assemble = (kind: Kind, stem: string, files: FileEntry[]): ContentRecord | undefined => {
    const sources = files.filter((f) => f.data.id !== undefined)
    if (sources.length === 0) {
      for (const f of files) report(f.path, ['no file of this record has an id, so it has no source file'])
      return undefined
    }
    const source = sources.find((f) => f.lang === options.defaultLanguage) ?? sources[0]!
    for (const other of sources) {
      if (other !== source) report(other.path, [`a record has one source file; ${source.path} already holds the id`])
    }
    const problems = checkSource(kind, source.data).concat(checkEvent(kind, source.data))
    if (problems.length > 0) {
      report(source.path, problems)
      return undefined
    }
    const id = source.data.id as number
    const holder = ids[idSpaceOf(kind)].get(id)
    if (holder && holder !== `${kind}/${stem}`) {
      report(source.path, [`id ${id} is already used by ${holder}`])
      return undefined
    }
    const byLang = new Map<Lang, FileEntry>()
    for (const file of files) {
      if (file !== source && file.data.id !== undefined) continue
      const issues = file === source ? [] : checkTranslation(file.data)
      if (issues.length > 0) report(file.path, issues)
      else byLang.set(file.lang, file)
    }
    return { kind, id, stem, source, files: byLang }
  }

  // Synchronous reads: measured here on 42,000 files, readFileSync took 0.4–0.5 s where fs/promises
  // or a pipeline of callback reads on the thread pool took 0.8–2.7 s. Loading happens once, before listening.
  const readEntry = (path: string): FileEntry | undefined => {
    const address = parseContentPath(path, options.defaultLanguage)
    if (typeof address === 'string') {
      report(path, [address])
      return undefined
    }
    try {
      const { data, body } = parseFrontMatter(readFileSync(join(dir, path), 'utf8'))
      // The file's mtime only matters to a source without a publication date, so only those pay for a stat.
      const mtimeMs = data.id !== undefined && data.date === undefined ? statSync(join(dir, path)).mtimeMs : 0
      return { path, lang: address.lang, data: normalize(data), body, mtimeMs }
    } catch (error) {
      report(path, [`cannot be read: ${(error as Error).message.split('\n')[0]}`])
      return undefined
    }
  }

  const track = (entry: FileEntry) => {
    entries.set(entry.path, entry)
    const key = `${entry.path.slice(0, entry.path.indexOf('/'))}/${stemOf(entry.path)}`
    let set = byStem.get(key)
    if (!set) byStem.set(key, (set = new Set()))
    set.add(entry.path)
  }
  const untrack = (path: string) => {
    entries.delete(path)
    byStem.get(`${path.slice(0, path.indexOf('/'))}/${stemOf(path)}`)?.delete(path)
  }
  const highWater = readHighWater(dir)

  const paths: string[] = []
  for (const kind of KINDS) {
    let names: string[] = []
    try {
      names = readdirSync(join(dir, kind))
    } catch {
      continue
    }
    for (const name of names.sort()) if (name.endsWith('.md')) paths.push(`${kind}/${name}`)
  }
  for (const path of paths) {
    const entry = readEntry(path)
    if (entry) track(entry)
  }
  loadAll(entries, (kind, stem, files) => {
    const record = assemble(kind, stem, files)
    if (record) {
      records.set(`${kind}/${stem}`, record)
      index(record, true)
    }
  })
  const media = await loadMedia(join(dir, 'media'))

  const commitNow = async (kind: Kind, stem: string, files: Partial<Record<Lang, FileWrite | null>>) => {
    if (!STEM.test(stem)) throw new CommitError(`"${stem}" is not a file stem`)
    const key = `${kind}/${stem}`
    const writes = Object.entries(files).map(([lang, file]) => {
      const path = contentPath(kind, stem, lang as Lang)
      if (!file) return { path, lang: lang as Lang, text: null }
      return { path, lang: lang as Lang, text: stringifyFrontMatter(file.data, file.body, KEY_ORDER[kind]) }
    })
    // The record as it will read back from disk, checked before a single byte is written.
    const next = new Map([...(byStem.get(key) ?? [])].map((path) => [path, entries.get(path)!]))
    for (const write of writes) {
      if (write.text === null) next.delete(write.path)
      else next.set(write.path, { path: write.path, lang: write.lang, ...parseWritten(write.text), mtimeMs: Date.now() })
    }
    const candidate = [...next.values()]
    const source = candidate.find((file) => file.data.id !== undefined)
    const problems = source ? checkSource(kind, source.data).concat(checkEvent(kind, source.data)) : []
    if (problems.length > 0) throw new CommitError(`${key}: ${problems.join('; ')}`)
    mkdirSync(join(dir, kind), { recursive: true })
    for (const write of writes) {
      if (write.text === null) await removeFile(join(dir, write.path))
      else await writeFileAtomic(join(dir, write.path), write.text)
    }
    const before = records.get(key)
    if (before) index(before, false)
    records.delete(key)
    for (const write of writes) if (write.text === null) untrack(write.path)
    for (const file of candidate) track(file)
    const after = candidate.length > 0 ? assemble(kind, stem, candidate) : undefined
    if (after) {
      records.set(key, after)
      index(after, true)
    }
    if (before && !after) await raiseHighWater(before)
    sorted.delete(kind)
    version++
    for (const listener of listeners) listener(before, after)
    return after
  }

  /** Ids of records deleted for good are remembered in content/.ids.yaml, so they are never handed out again. */
  const raiseHighWater = async (gone: ContentRecord) => {
    const space = idSpaceOf(gone.kind)
    if (gone.id <= highWater[space]) return
    highWater[space] = gone.id
    await writeFileAtomic(join(dir, HIGH_WATER_FILE), `# Highest ids ever used; Almanac never hands them out again.\npost: ${highWater.post}\nterm: ${highWater.term}\n`)
  }

  const nextId = (space: 'post' | 'term') => {
    let max = highWater[space]
    for (const id of ids[space].keys()) if (id > max) max = id
    if (space === 'post') for (const file of media.all()) if (file.id !== null && file.id > max) max = file.id
    return max + 1
  }

  const newStem = (kind: Kind, slug: string, id: number) => {
    const ascii = slug.normalize('NFKD').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').toLowerCase().slice(0, 80)
    const base = ascii && STEM.test(ascii) ? ascii : `${kind.replace(/(ies|s)$/, (m) => (m === 'ies' ? 'y' : ''))}-${id}`
    return byStem.has(`${kind}/${base}`) && (byStem.get(`${kind}/${base}`)?.size ?? 0) > 0 ? `${base}-${id}` : base
  }

  return {
    dir,
    media,
    defaultLanguage: options.defaultLanguage,
    fallback: options.fallback,
    get version() {
      return version
    },
    list(kind) {
      let list = sorted.get(kind)
      if (!list) {
        list = [...records.values()].filter((r) => r.kind === kind).sort((a, b) => a.id - b.id)
        sorted.set(kind, list)
      }
      return list
    },
    get(kind, id) {
      const key = ids[idSpaceOf(kind)].get(id)
      const record = key ? records.get(key) : undefined
      return record?.kind === kind ? record : undefined
    },
    kindOfId(space, id) {
      const key = ids[space].get(id)
      return key ? records.get(key)?.kind : undefined
    },
    bySlug(kind, lang, slug) {
      return slugs.get(`${kind}|${lang}`)?.get(slug)
    },
    fieldsIn,
    langOf,
    nextId,
    newStem,
    commit: (kind, stem, files) => queue(() => commitNow(kind, stem, files)),
    transaction: (work) => queue(() => work({ commit: commitNow })),
    onChange(listener) {
      listeners.push(listener)
    },
    problems() {
      return [...fileProblems].flatMap(([path, messages]) => messages.map((message) => ({ path, message })))
    },
  }
}

const HIGH_WATER_FILE = '.ids.yaml'

function readHighWater(dir: string): { post: number; term: number } {
  try {
    const data = parseFrontMatter(`---\n${readFileSync(join(dir, HIGH_WATER_FILE), 'utf8')}\n---\n`).data
    return { post: Number(data.post) || 0, term: Number(data.term) || 0 }
  } catch {
    return { post: 0, term: 0 }
  }
}

/** A written file read back the way a restart would read it. */
function parseWritten(text: string): { data: Record<string, unknown>; body: string } {
  const { data, body } = parseFrontMatter(text)
  return { data: normalize(data), body }
}
