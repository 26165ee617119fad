import type { ContentRecord, Store } from '../content/store.ts'
import type { Site } from '../context/site.ts'
import type { Lang } from '../languages.ts'
import type { SlugPages } from './slug-files.ts'

export interface BuildOptions {
  store: Store
  site: Site
  /** The output folder; the build writes nowhere else. */
  out: string
  /** The base URL `out` is served from. */
  publicUrl: string
  perPage: number
  maxPerPage: number
  now?: () => number
  onProgress?: (done: number, total: number) => void
  /**
   * Worker threads a full build renders in besides this thread (default: one per core but one, at most 4, none
   * for a small site; 0 renders on this thread alone). Each loads its own copy of the tree; this thread renders the
   * calendar feeds meanwhile, then takes pages as they do. Updates render on this thread.
   */
  workers?: number
  /** Event list pages also at `per_page=50`, for bulk consumers (default: not written). */
  widePages?: boolean
  /** The languages written (default: all); the others have no files. */
  languages?: readonly Lang[]
  /**
   * iCalendar feeds (docs/feeds.md): the whole calendar's always (unless false), and each category's, tag's, venue's and
   * organizer's; by default those only while the site with them stays within `hostLimitBytes`, true: always.
   */
  feeds?: boolean
  /**
   * Records also by slug. A host stores each as a full copy of the by-id file, so by default they are
   * written only while the site with them stays within `hostLimitBytes`; `slugs.json` always maps
   * slugs to ids.
   */
  slugPages?: boolean
  /** What the host publishes at most (default 10^9 bytes, GitHub Pages' and GitLab Pages' 1 GB). */
  hostLimitBytes?: number
}

/** What a build did. */
export interface BuildResult {
  files: number
  bytes: number
  written: number
  removed: number
  ms: number
  /** A full build's by-slug files: how many, their bytes, and whether they were written. */
  slugPages?: SlugPages
  /** A full build's feeds of categories, tags, venues and organizers: how many, their bytes, whether they were kept. */
  scopedFeeds?: SlugPages
}

type Change = [ContentRecord | undefined, ContentRecord | undefined]

/** The public API as static files: a full build, then updates that re-render only what a change touches. */
export interface SiteBuilder {
  full(): Promise<BuildResult>
  update(changes: Change[]): Promise<BuildResult>
}
