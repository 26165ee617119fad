/** `cost_details` as the reference emits it: all strings, `values` sorted ascending. */
export interface CostDetails {
  currency_symbol: string
  currency_code: string
  currency_position: string
  values: string[]
}

/** The site's currency defaults, used when an event's cost names no symbol. */
export interface CurrencyDefaults {
  symbol: string
  position: 'prefix' | 'postfix'
}

interface NumberToken {
  text: string
  value: number
  normalized: string
}

const NUMBER = /\d+(?:[.,]\d+)*/g
const PREFIXED = /^\s*([^\d\s.,]+?)\s*(\d[\d.,]*)\s*$/
const POSTFIXED = /^\s*(\d[\d.,]*)\s*([^\d\s.,]+?)\s*$/

/**
 * Formats a stored cost (a string, a number or a list of them) as `cost` and `cost_details`, as the reference
 * formats them.
 */
export function toCost(input: unknown, defaults: CurrencyDefaults): { cost: string; cost_details: CostDetails } {
  const entries = toEntries(input)
  const currency = inferCurrency(entries)
  const numbers = entries.flatMap((entry) => [...entry.matchAll(NUMBER)].map((m) => toToken(m[0])))
  const words = entries.filter((entry) => !/\d/.test(entry))
  numbers.sort((a, b) => a.value - b.value)
  const details: CostDetails = {
    currency_symbol: currency?.symbol ?? '',
    currency_code: '',
    currency_position: currency?.position ?? '',
    values: [...numbers.map((n) => n.normalized), ...words.map(toSlug)],
  }
  if (numbers.length === 0) return { cost: words[0] ?? '', cost_details: details }
  const symbol = currency?.symbol ?? defaults.symbol
  const position = currency?.position ?? defaults.position
  const format = (token: NumberToken) =>
    token.value === 0 ? 'Free' : position === 'prefix' ? `${symbol}${token.text}` : `${token.text}${symbol}`
  const min = numbers[0]!
  const max = numbers[numbers.length - 1]!
  const cost = min.value === max.value ? format(min) : `${format(min)} – ${format(max)}`
  return { cost, cost_details: details }
}

/** The lowest price of a cost, for JSON-LD offers; '0' when it is free or has no number. */
export function lowestPrice(details: CostDetails): string {
  return details.values.find((value) => /^\d/.test(value)) ?? '0'
}

function toEntries(input: unknown): string[] {
  const list = Array.isArray(input) ? input : input === undefined || input === null ? [] : [input]
  return list.map((item) => String(item).trim()).filter((item) => item !== '')
}

/** A symbol counts only when every entry is one number carrying the same symbol on the same side. */
function inferCurrency(entries: string[]): { symbol: string; position: 'prefix' | 'postfix' } | undefined {
  let found: { symbol: string; position: 'prefix' | 'postfix' } | undefined
  for (const entry of entries) {
    const prefix = PREFIXED.exec(entry)
    const postfix = prefix ? null : POSTFIXED.exec(entry)
    const next = prefix
      ? { symbol: prefix[1]!, position: 'prefix' as const }
      : postfix
        ? { symbol: postfix[2]!, position: 'postfix' as const }
        : undefined
    if (!next || (found && (found.symbol !== next.symbol || found.position !== next.position))) return undefined
    found = next
  }
  return found
}

/** Reads `1,000`, `12.50`, `12,50` and `1.000,50`; the display keeps what the editor wrote. */
function toToken(text: string): NumberToken {
  let normalized = text
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) normalized = text.replace(/,/g, '')
  else if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(text)) normalized = text.replace(/\./g, '').replace(',', '.')
  else if (/^\d+,\d{1,2}$/.test(text)) normalized = text.replace(',', '.')
  return { text, value: Number(normalized), normalized }
}

function toSlug(word: string): string {
  return word
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '')
}
