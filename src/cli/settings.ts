import { CONFIG_NAME } from '../config-file.ts'
import { loadConfig, type LoadedConfig } from '../config.ts'
import { isTrueWord } from '../text.ts'

type Flags = Record<string, string | boolean | undefined>

/** The settings for a command; warnings about the config file (unknown keys) go to stderr. */
export function settings(flags: Flags, defaults: Flags = {}): LoadedConfig {
  const loaded = loadConfig({ ...defaults, ...flags })
  for (const warning of loaded.warnings) console.error(`almanac: warning: ${warning}`)
  return loaded
}

/** Which config file was read, or that none was. */
export function configNote(file: string | null): string {
  return file ? `Config: ${file}` : `Config: none (no ${CONFIG_NAME} here or in a folder above)`
}

/** The request log is on unless --quiet or ALMANAC_QUIET says otherwise. */
export function requestLog(flags: Flags, env: NodeJS.ProcessEnv = process.env): ((line: string) => void) | undefined {
  const quiet = flags.quiet === true || isTrueWord(env.ALMANAC_QUIET ?? '')
  return quiet ? undefined : (line) => console.log(line)
}
