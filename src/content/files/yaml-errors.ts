import type jsYaml from 'js-yaml'

// js-yaml's reasons, said the way an editor fixes them. A reason not listed here is shown as is.
const PLAIN: [RegExp, (line: string) => string][] = [
  [/^duplicated mapping key/, (line) => `${keyOf(line)} is written twice; keep one`],
  [
    /^incomplete explicit mapping pair/,
    () => 'a value that holds ": " must be quoted (for example title: "Jazz: Live")',
  ],
  [
    /^unexpected end of the stream within a flow collection/,
    () => 'a list or mapping opened with [ or { is never closed',
  ],
  [/^unexpected end of the stream within a (double|single) quoted scalar/, () => 'a quoted value is never closed'],
  [
    /^bad indentation of a (mapping entry|sequence entry)/,
    () => 'this line is not indented like the keys or items around it',
  ],
  [
    /^end of the stream or a document separator is expected/,
    () => 'this line does not fit the lines above (look at its indentation and colons)',
  ],
  [/^can not read a block mapping entry/, () => 'a line above has no ": " between its key and its value'],
]

/** `not valid YAML: …` in plain words, with the column, for an error js-yaml threw on `block`. */
export function plainYamlMessage(error: jsYaml.YAMLException, block: string): string {
  const { reason, mark } = error as jsYaml.YAMLException & { reason?: string; mark?: { line: number; column: number } }
  const line = mark ? (block.split('\n')[mark.line] ?? '') : ''
  const found = PLAIN.find(([pattern]) => pattern.test(reason ?? ''))
  const said = found ? found[1](line) : (reason ?? error.message.split('\n')[0])
  return `not valid YAML: ${said}${mark ? ` (column ${mark.column + 1})` : ''}`
}

/** The key a line starts with, quoted as JSON and cut short, or "a key". */
function keyOf(line: string): string {
  const key = /^\s*([^:#]{1,40}?)\s*:/.exec(line)?.[1]
  return key ? `key ${JSON.stringify(key)}` : 'a key'
}
