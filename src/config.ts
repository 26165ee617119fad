import { dirname, resolve } from 'node:path'
import { ConfigError, readConfigFile } from './config-file.ts'
import { isLang, LANGUAGES, type Lang } from './languages.ts'
import { isTimeZone } from './time/zone.ts'
import { didYouMean } from './suggest.ts'
import { isFalseWord, isTrueWord, trimEndOf, trimOf } from './text.ts'

/** Every setting, resolved once: flags, then ALMANAC_* variables, then the config file, then defaults. */
export interface Config {
  content: string
  out: string
  port: number
  host: string
  users: string
  /** Public base URL of the site, without a trailing slash; '' means "the address the server listens on". */
  site_url: string
  timezone: string
  default_language: Lang
  fallback: boolean
  per_page: number
  max_per_page: number
  api_root: string
  /** ISO 4217 code used for JSON-LD offers when an event names none. */
  currency: string
  /** Symbol shown in `cost` when an event's cost carries none (the reference's site default `$`). */
  currency_symbol: string
  /** Where that symbol goes: `prefix` or `postfix`. */
  currency_position: 'prefix' | 'postfix'
  /** Radius of an event search around `geoloc_lat`/`geoloc_lng`, in km. */
  geoloc_distance: number
  /** Public base URL the static build is served from ('' means site_url). */
  base_url: string
  /** The site's name and tagline, shown by the API index (`/wp-json/`). */
  site_name: string
  site_description: string
  /** The static build also writes every event list page at `per_page=50` (bulk consumers); off by default. */
  wide_pages: boolean
  /** The languages the static build writes, comma-separated ('' means all). */
  languages: string
  /**
   * The static build writes every record by slug too: `auto` (the default) while the site with them
   * stays within 1 GB, since a host stores each as a full copy; `true` always; `false` never.
   */
  slug_pages: boolean | 'auto'
  /**
   * The static build's iCalendar feeds (docs/feeds.md): `auto` (the default) writes the whole calendar's, and
   * each category's, tag's, venue's and organizer's while the site with them stays within 1 GB; `true` all of
   * them always; `false` none.
   */
  feeds: boolean | 'auto'
}

export const DEFAULTS: Config = {
  content: './content',
  out: './dist',
  port: 3000,
  host: 'localhost',
  users: './.almanac/users.yaml',
  site_url: '',
  timezone: 'UTC',
  default_language: 'en',
  fallback: true,
  per_page: 9,
  max_per_page: 50,
  api_root: '/wp-json',
  currency: 'USD',
  currency_symbol: '$',
  currency_position: 'prefix',
  geoloc_distance: 25,
  base_url: '',
  site_name: 'Almanac',
  site_description: '',
  wide_pages: false,
  languages: '',
  slug_pages: 'auto',
  feeds: 'auto',
}

type Source = Partial<Record<keyof Config, unknown>> & { config?: unknown }

/** The settings, the file they were read from (null: none), and warnings about that file (unknown keys). */
export interface LoadedConfig {
  config: Config
  file: string | null
  warnings: string[]
}

const PATHS: readonly (keyof Config)[] = ['content', 'out', 'users']

/**
 * Flags, then ALMANAC_* variables, then the config file, then defaults. Paths given by flags or
 * variables are relative to `cwd`; paths in the config file, and the default paths when there is
 * one, are relative to the file's folder, so a content repository works from any of its folders.
 */
export function loadConfig(
  flags: Source = {},
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): LoadedConfig {
  const named = typeof flags.config === 'string' && flags.config !== '' ? flags.config : env.ALMANAC_CONFIG || undefined
  const file = readConfigFile(named, cwd, Object.keys(DEFAULTS))
  const home = file.path ? dirname(file.path) : cwd
  const config = { ...DEFAULTS }
  for (const key of Object.keys(DEFAULTS) as (keyof Config)[]) {
    const given = [flags[key], env[`ALMANAC_${key.toUpperCase()}`]].find((raw) => raw !== undefined && raw !== '')
    const fromFile = given === undefined ? file.data[key] : undefined
    const raw = given ?? fromFile
    if (raw !== undefined && raw !== '') {
      ;(config as Record<string, unknown>)[key] =
        given !== undefined ? coerce(key, raw) : inFile(file.path!, file.lineOf(key), () => coerce(key, raw))
    }
    if (PATHS.includes(key))
      (config as Record<string, unknown>)[key] = resolve(given === undefined ? home : cwd, config[key] as string)
  }
  config.site_url = trimEndOf(config.site_url, '/')
  config.base_url = trimEndOf(config.base_url, '/')
  config.api_root = `/${trimOf(config.api_root, '/')}`
  return { config, file: file.path, warnings: file.warnings }
}

/** A value from the config file that cannot be used is reported with the file and the line. */
function inFile<T>(path: string, line: number, read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`${path}:${line}: ${error.message}`)
    throw error
  }
}

function coerce(key: keyof Config, raw: unknown): unknown {
  const auto = key === 'slug_pages' || key === 'feeds'
  if (auto && raw === 'auto') return raw
  const expected = auto ? 'boolean' : typeof DEFAULTS[key]
  if (expected === 'number') {
    const n = Number(raw)
    if (!Number.isInteger(n) || n < 0)
      throw new ConfigError(`${key}: expected a whole number, got ${JSON.stringify(raw)}`)
    if (key === 'port' && n > 65535) throw new ConfigError(`port: expected 0–65535, got ${n}`)
    return n
  }
  if (expected === 'boolean') {
    if (typeof raw === 'boolean') return raw
    if (isTrueWord(raw)) return true
    if (isFalseWord(raw)) return false
    const choices = auto ? 'true, false or auto' : 'true or false'
    throw new ConfigError(`${key}: expected ${choices}, got ${JSON.stringify(raw)}`)
  }
  if (key === 'languages') return languageList(raw)
  if (typeof raw !== 'string' && typeof raw !== 'number')
    throw new ConfigError(`${key}: expected text, got ${JSON.stringify(raw)}`)
  const value = String(raw)
  if (key === 'default_language' && !isLang(value))
    throw new ConfigError(`default_language: unknown language "${value}"`)
  if (key === 'timezone' && !isTimeZone(value)) throw new ConfigError(`timezone: "${value}" is not an IANA time zone`)
  if ((key === 'site_url' || key === 'base_url') && value !== '' && !isHttpUrl(value)) {
    throw new ConfigError(`${key}: expected an http(s) URL, got "${value}"`)
  }
  if (key === 'currency_position' && value !== 'prefix' && value !== 'postfix') {
    throw new ConfigError(`currency_position: expected prefix or postfix, got "${value}"`)
  }
  return value
}

/** `languages`: a comma-separated text (or, in the config file, a list) of known languages, each once. */
function languageList(raw: unknown): string {
  const items = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(',') : undefined
  const langs = items?.map((item) => item.trim()).filter(Boolean)
  if (!langs?.length) throw new ConfigError(`languages: expected a list such as en,ms, got ${JSON.stringify(raw)}`)
  const unknown = langs.find((lang) => !isLang(lang))
  if (unknown !== undefined)
    throw new ConfigError(
      `languages: unknown language "${unknown}"${didYouMean(unknown, LANGUAGES)} (known: ${LANGUAGES.join(', ')})`,
    )
  return [...new Set(langs)].join(',')
}

/** The languages a build writes: those `languages` names, in their usual order, or all. */
export function builtLanguages(config: Pick<Config, 'languages'>): Lang[] {
  const named = new Set(config.languages.split(','))
  return config.languages ? LANGUAGES.filter((lang) => named.has(lang)) : [...LANGUAGES]
}

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol)
  } catch {
    return false
  }
}
