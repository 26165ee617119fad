const TEXT_FIELDS = new Set([
  'slug',
  'excerpt',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
  'password',
  'description',
])
const ID_LISTS = new Set(['venue', 'organizer', 'categories', 'tags'])

/**
 * Hand-written YAML gives numbers where text is meant (`zip: 012345`, which YAML reads as the octal
 * number 5349) and single ids where lists are meant. A text field keeps the text as the editor
 * wrote it (`written`, from the file), so leading zeros, `0x…` and `1_000` survive.
 */
export function normalize(
  data: Record<string, unknown>,
  written: Record<string, string> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  // Keys, not entries: an array per field per file was a tenth of what a start allocates.
  for (const key of Object.keys(data)) {
    const value = data[key]
    if (TEXT_FIELDS.has(key) && typeof value === 'number') out[key] = written[key] ?? String(value)
    else if (ID_LISTS.has(key) && typeof value === 'number') out[key] = [value]
    else out[key] = value
  }
  return out
}
