import { renderUsage, type ArgsDef, type CommandDef } from 'citty'

/** Where our printing goes: a stream that may or may not be a terminal. */
export interface Out {
  isTTY?: boolean
  write(text: string): unknown
}

const SETTINGS_NOTE = 'Settings also come from ALMANAC_* environment variables and almanac.config.yaml (see README).'

/** Colour only on a terminal, and never when NO_COLOR is set to anything (https://no-color.org). */
export function colourAllowed(stream: Out, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb'
}

/** Removes terminal colour codes. */
export function plain(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is what a colour code starts with
  return text.replace(/\u001b\[[0-9;]*m/g, '')
}

/** A command's usage as citty renders it, plain unless `stream` may show colour; ends with a newline. */
export async function usageFor(command: CommandDef<ArgsDef>, stream: Out, settingsNote = true): Promise<string> {
  const lines = (await renderUsage(command)).split('\n').map((line) => line.trimEnd())
  const text = `${lines.join('\n').trimEnd()}\n${settingsNote ? `\n${SETTINGS_NOTE}\n` : ''}`
  return colourAllowed(stream) ? text : plain(text)
}

/** Names as a sentence says them: `a, b or c`. */
export function either(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
}
