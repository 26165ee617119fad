import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml'

/** YAML that cannot be parsed: the line (1-based) where the parser stopped, and why. */
export class YamlSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(`line ${line}: ${problem}`)
  }
}

/** Parsed YAML that can say on which line a key or a list item starts. */
export interface LinedYaml {
  data: unknown
  /** The line of the key (in a mapping) or the item (in a list) at `path`; undefined when there is none. */
  lineOf(path: readonly (string | number)[]): number | undefined
}

/**
 * Parses one YAML document; throws YamlSyntaxError with the line of the first problem. `uniqueKeys: false`
 * takes a repeated key without complaint, and in linear time (the check is quadratic in a mapping's size).
 */
export function parseLined(text: string, options: { uniqueKeys?: boolean } = {}): LinedYaml {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: options.uniqueKeys ?? true })
  const first = doc.errors[0]
  if (first)
    throw new YamlSyntaxError(lines.linePos(first.pos[0]).line, first.message.split('\n')[0]!.replace(/:$/, ''))
  let data: unknown
  try {
    data = doc.toJS()
  } catch (error) {
    throw new YamlSyntaxError(1, (error as Error).message.split('\n')[0]!)
  }
  const lineOf = (path: readonly (string | number)[]) => {
    const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents
    const last = path[path.length - 1]
    const node = isMap(parent)
      ? parent.items.find((pair) => (isScalar(pair.key) ? pair.key.value : pair.key) === last)?.key
      : isSeq(parent) && typeof last === 'number'
        ? parent.items[last]
        : undefined
    const offset = (node as { range?: [number, number, number] } | undefined)?.range?.[0]
    return offset === undefined ? undefined : lines.linePos(offset).line
  }
  return { data, lineOf }
}
