/**
 * An absolute http(s) URL of printable ASCII with a host, as PHP's FILTER_VALIDATE_URL demands. Other
 * schemes (`javascript:`, `data:`, `vbscript:`) are refused, in any case and however padded: a website
 * is a link every client will follow. Content files and writes through the API follow this one rule.
 */
export function isWebAddress(value: string): boolean {
  if (!/^[\x21-\x7e]+$/.test(value) || !/^https?:\/\/[^/]/i.test(value)) return false
  try {
    return new URL(value).hostname !== ''
  } catch {
    return false
  }
}

/** The name of the JSON Schema format that applies the rule to a record's `website`. */
export const WEB_ADDRESS_FORMAT = 'web-address'

/**
 * Whether an http(s) image address in a content file is a URL at all: one WHATWG URL reads, with a host. Looser
 * than `isWebAddress` (a write's rule): a file may name `https://example.my/gambar/café.jpg`, as it always could.
 */
export function isUrlWithHost(value: string): boolean {
  try {
    return new URL(value).hostname !== ''
  } catch {
    return false
  }
}
