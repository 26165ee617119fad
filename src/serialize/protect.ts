/**
 * The reference's password blanking (docs/compatibility.md §30): these keys, wherever present on a protected record,
 * are replaced so that only title, dates, slug, url and ids remain readable.
 */
const BLANKED: Record<string, unknown> = {
  description: '',
  excerpt: '',
  website: '',
  cost: '',
  address: '',
  city: '',
  country: '',
  province: '',
  zip: '',
  stateprovince: '',
  phone: '',
  email: '',
  image: false,
  all_day: null,
  show_map: null,
  show_map_link: null,
  hide_from_listings: null,
  sticky: null,
  featured: null,
  ticketed: null,
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
  custom_fields: [],
  geo_lat: 0,
  geo_lng: 0,
  // Almanac's (docs/compatibility.md §32): the reason and the online address are the event's content; its status
  // and attendance mode stay readable, as its dates do.
  event_status_reason: '',
  online_url: '',
}

/** Blanks a protected record's fields in place of their values, keeping key order. */
export function blankProtected(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) {
    if (key === 'cost_details') out[key] = { currency_symbol: '', currency_position: '', currency_code: '', values: [] }
    else if (key in BLANKED) out[key] = structuredClone(BLANKED[key])
    else out[key] = value
  }
  return out
}

/** Whether a record is protected for this request: it has a password and the caller did not give it. */
export function isLocked(password: unknown, given: string | undefined): boolean {
  if (typeof password !== 'string' || password === '') return false
  return given === undefined || !safeEqual(password, given)
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  let diff = left.length ^ right.length
  for (let i = 0; i < Math.max(left.length, right.length); i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0)
  return diff === 0
}
