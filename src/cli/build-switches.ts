import { builtLanguages, type Config } from '../config.ts'
import type { BuildOptions, BuildResult } from '../prerender/site-builder.ts'
import { HOST_LIMIT_BYTES, SLUG_INDEX } from '../prerender/slug-files.ts'

// The switches that shape a static build, shared by `almanac build` and `almanac serve --build` (declared
// in args.ts, with the other options).

type Flags = Record<string, string | boolean | undefined>

/** The switches' flags as settings, for `loadConfig` (a flag not given leaves the setting to the file or default). */
export function switchSettings(flags: Flags): Flags {
  return {
    ...flags,
    wide_pages: flags['wide-pages'],
    slug_pages: flags['slug-pages'],
    languages: flags.languages,
    feeds: flags.feeds,
  }
}

/** The builder's options the settings choose. */
export function switchOptions(
  config: Config,
): Required<Pick<BuildOptions, 'widePages' | 'languages'>> & Pick<BuildOptions, 'slugPages' | 'feeds'> {
  const slugs = config.slug_pages === 'auto' ? {} : { slugPages: config.slug_pages }
  const feeds = config.feeds === 'auto' ? {} : { feeds: config.feeds }
  return { widePages: config.wide_pages, languages: builtLanguages(config), ...slugs, ...feeds }
}

/** A note when a full build left the feeds of categories, tags, venues and organizers out to stay within 1 GB. */
export function scopedFeedsLeftOut(result: BuildResult, told: boolean | undefined): string | undefined {
  const feeds = result.scopedFeeds
  if (!feeds || feeds.written || told === false || feeds.files === 0) return undefined
  return (
    `almanac: note: left out ${feeds.files} feeds of categories, tags, venues and organizers ` +
    `(${(feeds.bytes / 1e6).toFixed(0)} MB): with them the site would pass 1 GB, more than GitHub Pages and ` +
    "GitLab Pages publish. The whole calendar's feeds are written; --feeds writes them all anyway"
  )
}

/** A warning when the files are more than GitHub Pages or GitLab Pages publish, naming the switches that shrink them. */
export function overHostLimit(result: BuildResult): string | undefined {
  if (result.bytes <= HOST_LIMIT_BYTES) return undefined
  const gb = (result.bytes / 1e9).toFixed(2)
  return `almanac: warning: ${gb} GB is more than GitHub Pages and GitLab Pages publish (1 GB); --no-slug-pages or --languages shrink it`
}

/** A note when a full build left its by-slug files out to stay within 1 GB: what, why, and what stands in for them. */
export function slugPagesLeftOut(result: BuildResult, told: boolean | undefined): string | undefined {
  const slugs = result.slugPages
  if (!slugs || slugs.written || told === false || slugs.files === 0) return undefined
  const withThem = ((result.bytes + slugs.bytes) / 1e9).toFixed(2)
  return (
    `almanac: note: left out ${slugs.files} by-slug files (${(slugs.bytes / 1e6).toFixed(0)} MB): with them the site ` +
    `would be ${withThem} GB, more than GitHub Pages and GitLab Pages publish (1 GB). ${SLUG_INDEX} maps each slug ` +
    'to its id; --slug-pages writes them anyway'
  )
}
