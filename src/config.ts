import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import YAML from 'yaml'
import { isLang, type Lang } from './languages.ts'
import { isTimeZone } from './time/zone.ts'
import { trimEndOf, trimOf } from './text.ts'

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
}

type Source = Partial<Record<keyof Config, unknown>> & { config?: unknown }

/** Thrown for a setting that cannot be used; the CLI prints it and exits 1. */
export class ConfigError extends Error {}

/** Resolves the settings from command-line flags, the environment and the config file. */
export function resolveConfig(flags: Source = {}, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const file = readConfigFile(typeof flags.config === 'string' ? flags.config : undefined, cwd)
  const config = { ...DEFAULTS }
  for (const key of Object.keys(DEFAULTS) as (keyof Config)[]) {
    const raw = flags[key] ?? env[`ALMANAC_${key.toUpperCase()}`] ?? file[key]
    if (raw !== undefined && raw !== '') (config as Record<string, unknown>)[key] = coerce(key, raw)
  }
  config.content = resolve(cwd, config.content)
  config.out = resolve(cwd, config.out)
  config.users = resolve(cwd, config.users)
  config.site_url = trimEndOf(config.site_url, '/')
  config.base_url = trimEndOf(config.base_url, '/')
  config.api_root = '/' + trimOf(config.api_root, '/')
  return config
}

function readConfigFile(path: string | undefined, cwd: string): Source {
  const file = resolve(cwd, path ?? 'almanac.config.yaml')
  if (!existsSync(file)) {
    if (path) throw new ConfigError(`${file}: config file not found`)
    return {}
  }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  let data: unknown
  try {
    data = YAML.parse(text)
  } catch (error) {
    throw new ConfigError(`${file}: not valid YAML: ${(error as Error).message.split('\n')[0]!.replace(/:$/, '')}`)
  }
  if (data === null || data === undefined) return {}
  if (typeof data !== 'object' || Array.isArray(data)) throw new ConfigError(`${file}: expected a mapping of settings`)
  return data as Source
}

function coerce(key: keyof Config, raw: unknown): unknown {
  const expected = typeof DEFAULTS[key]
  if (expected === 'number') {
    const n = Number(raw)
    if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${key}: expected a whole number, got ${JSON.stringify(raw)}`)
    if (key === 'port' && n > 65535) throw new ConfigError(`port: expected 0–65535, got ${n}`)
    return n
  }
  if (expected === 'boolean') {
    if (typeof raw === 'boolean') return raw
    if (/^(true|1|yes|on)$/i.test(String(raw))) return true
    if (/^(false|0|no|off)$/i.test(String(raw))) return false
    throw new ConfigError(`${key}: expected true or false, got ${JSON.stringify(raw)}`)
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') throw new ConfigError(`${key}: expected text, got ${JSON.stringify(raw)}`)
  const value = String(raw)
  if (key === 'default_language' && !isLang(value)) throw new ConfigError(`default_language: unknown language "${value}"`)
  if (key === 'timezone' && !isTimeZone(value)) throw new ConfigError(`timezone: "${value}" is not an IANA time zone`)
  if ((key === 'site_url' || key === 'base_url') && value !== '' && !isHttpUrl(value)) {
    throw new ConfigError(`${key}: expected an http(s) URL, got "${value}"`)
  }
  if (key === 'currency_position' && value !== 'prefix' && value !== 'postfix') {
    throw new ConfigError(`currency_position: expected prefix or postfix, got "${value}"`)
  }
  return value
}

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol)
  } catch {
    return false
  }
}
