import { KINDS, type Kind } from '../content/model/kinds.ts'
import { LANGUAGES, type Lang } from '../languages.ts'
import { slugHasFile } from './file-layout.ts'
import type { ManifestEntry } from './manifest.ts'
import type { Job } from './public-urls.ts'

// By-slug files, and the index that stands in for them when they are left out (docs/architecture.md §7).

/**
 * GitHub Pages and GitLab Pages publish at most 1 GB (read as 10^9 bytes). Their upload archives (a
 * tar, a zip) hold a by-slug hard link as a full copy, so the manifest's bytes are what they count.
 */
export const HOST_LIMIT_BYTES = 1_000_000_000

/** The index of slugs: a static client reads a record's id here, then its by-id file. Not an API URL. */
export const SLUG_INDEX = 'slugs.json'

/** What a full build did with the by-slug files: how many there are, their bytes, and whether it wrote them. */
export interface SlugPages {
  files: number
  bytes: number
  written: boolean
}

/** Whether a build writes its by-slug files: as told, or (told nothing) when the site with them, `bytes`, fits the host. */
export function writesSlugPages(told: boolean | undefined, bytes: number, limit = HOST_LIMIT_BYTES): boolean {
  return told ?? bytes <= limit
}

/**
 * Every record a client can ask for by slug, kept per record so that an update replaces a record's
 * slugs alone. Its text is `{ lang: { kind: { slug: id } } }`, in a fixed order; it is made again only
 * when a record's entries changed (a 10,000-event index takes tens of milliseconds to make).
 */
export class SlugIndex {
  #jobs = new Map<string, Job[]>()
  /** Each record's entries in the last text, as `lang slug` lines. */
  #shown = new Map<string, string>()
  #text: string | undefined

  /** A record's by-slug jobs, out of its jobs (none: it has no slug to be found by). */
  set(record: string, jobs: Job[]): void {
    jobs = jobs.filter((job) => job.sameAs)
    if (jobs.length) this.#jobs.set(record, jobs)
    else this.#jobs.delete(record)
  }

  clear(): void {
    this.#jobs.clear()
    this.#shown.clear()
    this.#text = undefined
  }

  /** Every record's by-slug jobs, in place of what was kept. */
  replaceAll(jobs: Job[]): void {
    this.clear()
    for (const job of jobs) {
      const kept = this.#jobs.get(job.record!)
      if (kept) kept.push(job)
      else this.#jobs.set(job.record!, [job])
    }
  }

  /** Whether these records' entries differ from the last text's (their slugs, or whether their by-id files are written). */
  changed(records: Iterable<string>, written: (byIdUrl: string) => boolean): boolean {
    let changed = false
    for (const record of records) {
      const shown = this.#shown.get(record) ?? ''
      if (entries(this.#jobs.get(record) ?? [], written) === shown) continue
      changed = true
      this.#text = undefined
    }
    return changed
  }

  /** The index, with the records whose by-id answer has a file (`written` says which). */
  text(written: (byIdUrl: string) => boolean): string {
    this.#text ??= this.#make(written)
    return this.#text
  }

  #make(written: (byIdUrl: string) => boolean): string {
    const index = new Map<Lang, Map<Kind, [string, number][]>>()
    this.#shown.clear()
    for (const [record, jobs] of this.#jobs) {
      const [kind, id] = record.split('/') as [Kind, string]
      this.#shown.set(record, entries(jobs, written))
      for (const job of jobs) {
        if (!job.slug || !written(job.sameAs!)) continue
        const kinds = index.get(job.slug.lang) ?? index.set(job.slug.lang, new Map()).get(job.slug.lang)!
        const slugs = kinds.get(kind) ?? kinds.set(kind, []).get(kind)!
        slugs.push([job.slug.slug, Number(id)])
      }
    }
    const ordered: Record<string, Record<string, Record<string, number>>> = {}
    for (const lang of LANGUAGES.filter((lang) => index.has(lang))) {
      const kinds = index.get(lang)!
      ordered[lang] = {}
      for (const kind of KINDS.filter((kind) => kinds.has(kind)))
        ordered[lang][kind] = Object.fromEntries(kinds.get(kind)!.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    }
    return `${JSON.stringify(ordered)}\n`
  }
}

/** A record's entries in the index, as `lang slug` lines: those whose by-id file is written. */
function entries(jobs: Job[], written: (byIdUrl: string) => boolean): string {
  return jobs
    .filter((job) => job.slug && written(job.sameAs!))
    .map((job) => `${job.slug!.lang} ${job.slug!.slug}`)
    .join('\n')
}

/** The by-slug files a full build can write (those whose by-id file it wrote), as [file, by-id file], and their bytes. */
export function slugFiles(
  jobs: Job[],
  fileOf: (url: string) => string,
  entryOf: (file: string) => ManifestEntry | undefined,
): { pairs: [Job, string, string][]; bytes: number } {
  const pairs: [Job, string, string][] = []
  let bytes = 0
  for (const job of jobs) {
    const source = fileOf(job.sameAs!)
    const entry = entryOf(source)
    if (!entry || !slugHasFile(job.slug!.slug)) continue
    pairs.push([job, fileOf(job.url), source])
    bytes += entry.bytes
  }
  return { pairs, bytes }
}
