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
  for (const [key, value] of Object.entries(data)) {
    if (TEXT_FIELDS.has(key) && typeof value === 'number') out[key] = written[key] ?? String(value)
    else if (ID_LISTS.has(key) && typeof value === 'number') out[key] = [value]
    else out[key] = value
  }
  return out
}
