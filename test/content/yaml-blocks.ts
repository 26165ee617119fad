import fc from 'fast-check'

// Front matter blocks for property tests: mostly what the simple reader (yaml-simple.ts) takes, so that
// both its reads and its refusals are tried; each block starts with the newline that ends the `---` line.

const KEYS = [
  ...['id', 'title', 'slug', 'zip', 'venue', 'tags', '_x', 'a-b', 'x1', 'k'.repeat(64), 'k'.repeat(65)],
  ...['true', 'True', 'TRUE', 'false', 'null', 'Null', 'NULL', 'yes', 'on', '~', '1', '_1', '<<', 'a b', '"id"'],
  ...['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'],
]
const SEPARATORS = [': ', ':  ', ':', ':\t', ' : ', ': \t', '::']
const VALUES = [
  ...['12', '-5', '+3', '0', '-0', '012', '01289', '0x1F', '0b11', '0o17', '1_000', '1:30', '-190:20:30', '1e3'],
  ...['1.5', '.5', '1_0.5', '-.inf', '.inf', '.Inf', '.NaN', '.nan', '1:2.5', '6.8523015e+5', '0.', '1e', '0x'],
  ...['true', 'True', 'TRUE', 'tRue', 'false', 'yes', 'no', 'on', 'off', 'null', '~', 'Null', '', ' ', '\t'],
  ...['S$95', 'a: b', 'a:b', 'a:', 'a #c', 'a#c', 'a\t#c', '#c', 'a ', 'a\t', 'a  b', 'a\tb', '- a', '-a', '-'],
  ...['?a', '? a', ':a', '&a x', '*a', '!!str 1', '!x', '|', '>', '%x', '@x', '`x', 'a, b', 'a [b] {c}', 'a\\b'],
  ...['[1, 2]', '[]', '[ ]', '[1,2', '[1, [2]]', '[a b]', '[-]', '[-1, +2, .5, -.inf]', '[1, 2] # c', '[1]#c'],
  ...['[1] x', '[true, null, ~, 01234, 0x1F]', '[a,,b]', '[a,]', '[ a , b ]', '[\ta]', '[a: b]', '{a: 1}', '{}'],
  ...['"x"', '"a\\"b"', '"a\\nb"', '"a" # c', '"a"#c', '"a" x', '"a', '"a\tb"', '""', '"a: b"', '"#"', '"\'"'],
  ...["'a'", "'it''s'", "'a", "'a' b", "'a\tb'", "''", "''''", "'a' # c", "'\"'", '"12"', "'true'"],
  ...['中文 字', 'தமிழ் நிகழ்வு', '2027-03-27 13:00:00', '2027-03-27', 'https://x.org/#a', 'a # b: c'],
  ...['a\u2028b', 'a\u0085b', 'a\uFEFFb', '\uD800x', 'x\uDC00', 'x\u0001', 'x\u007F', '\u00A0a', 'a\u00A0'],
  ...['---', '...', 'a\rb', '😀', '12 # c', '7\t# c', '0x1F  # hex', '1_000 ', '012\t'],
]
const OTHER_LINES = [
  '',
  '  ',
  '\t',
  '# comment',
  '#',
  '  # indented comment',
  '  nested: 1',
  '- item',
  '...',
  '\uFEFFid: 1',
]
const OTHER_LINES_MORE = ['  continued', ' x', '? key', ': value', '%YAML 1.2', 'plain line', '"quoted": 1']

/** Mostly what the simple reader takes, so that both its reads and its refusals are tried. */
const often = (common: string[], all: string[]) =>
  fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...common) }, { weight: 1, arbitrary: fc.constantFrom(...all) })
const key = often(KEYS.slice(0, 10), KEYS)
const separator = often([': '], SEPARATORS)
/** Random text from the characters YAML gives meaning to (and a few it does not), for lines nobody wrote. */
const HOSTILE = [...': #-[]{}"\'\t\r\\&*!|>%@`?,.~_+=/\uFEFF\u2028\u0085\u00A0é中😀0123456789aeEfFnNoOtTyYxXb']
const noise = fc.string({ unit: fc.constantFrom(...HOSTILE), maxLength: 24, size: 'max' })
const simpleValue = often(
  VALUES.filter((v) => /^[\w"'[.+-]/.test(v)),
  VALUES,
)
const line = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(key, separator, simpleValue) },
  { weight: 1, arbitrary: fc.constantFrom(...OTHER_LINES, ...OTHER_LINES_MORE) },
  { weight: 1, arbitrary: fc.tuple(key, separator, noise) },
  { weight: 1, arbitrary: noise },
)
/** A block as a file holds it: in a CRLF file it ends with its last line's CR (the LF opens the closing fence). */
export const block = fc
  .tuple(fc.array(line, { maxLength: 8 }), often(['\n', '\r\n'], ['\r']), fc.boolean())
  .map(
    ([lines, eol, fromFile]) =>
      `\n${lines.map((l) => (typeof l === 'string' ? l : l.join(''))).join(eol)}${fromFile && eol === '\r\n' ? '\r' : ''}`,
  )
