import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { didYouMean } from './suggest.ts'
import { parseLined, YamlSyntaxError } from './yaml-lines.ts'

export const CONFIG_NAME = 'almanac.config.yaml'

/** A settings file as read: where it is (null: none), its settings, where each key is, what looked wrong. */
export interface ConfigFile {
  path: string | null
  data: Record<string, unknown>
  lineOf(key: string): number
  warnings: string[]
}

/** Thrown for a setting that cannot be used; the CLI prints it and exits 1. */
export class ConfigError extends Error {}

const NONE: ConfigFile = { path: null, data: {}, lineOf: () => 1, warnings: [] }

/**
 * The settings file: the one named (by --config or ALMANAC_CONFIG, relative to `cwd`; it must exist),
 * else the first almanac.config.yaml from `cwd` upward to the root of the file system, else none.
 */
export function readConfigFile(named: string | undefined, cwd: string, known: readonly string[]): ConfigFile {
  const path = named ? resolve(cwd, named) : findUpward(cwd)
  if (path === null) return NONE
  if (!existsSync(path)) throw new ConfigError(`${path}: config file not found`)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ConfigError(
      `${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    )
  }
  return parseConfig(path, text, known)
}

/** The first almanac.config.yaml in `dir` or a folder above it. */
export function findUpward(dir: string): string | null {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, CONFIG_NAME))) return join(at, CONFIG_NAME)
    if (dirname(at) === at) return null
  }
}

function parseConfig(path: string, text: string, known: readonly string[]): ConfigFile {
  let parsed: ReturnType<typeof parseLined>
  try {
    parsed = parseLined(text)
  } catch (error) {
    if (error instanceof YamlSyntaxError)
      throw new ConfigError(`${path}:${error.line}: not valid YAML: ${error.problem}`)
    throw error
  }
  const lineOf = (key: string) => parsed.lineOf([key]) ?? 1
  if (parsed.data === null || parsed.data === undefined) return { ...NONE, path }
  if (typeof parsed.data !== 'object' || Array.isArray(parsed.data))
    throw new ConfigError(`${path}:1: expected a mapping of settings (key: value lines)`)
  const data = parsed.data as Record<string, unknown>
  const warnings = Object.keys(data)
    .filter((key) => !known.includes(key))
    .map((key) => `${path}:${lineOf(key)}: unknown setting "${key}"${didYouMean(key, known)}; it is ignored`)
  return { path, data, lineOf, warnings }
}
