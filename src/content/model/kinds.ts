/** The five record kinds, as folder names under `content/`. */
export const KINDS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const

export type Kind = (typeof KINDS)[number]

/** Kinds that are WordPress posts (one id space) and kinds that are terms (another). */
export type PostKind = 'events' | 'venues' | 'organizers'
export type TermKind = 'categories' | 'tags'
/** Post kinds an event links to: its venue and its organizers. */
export type LinkedKind = 'venues' | 'organizers'

/** Whether a kind draws its ids from the term id space. */
export function isTermKind(kind: Kind): kind is TermKind {
  return kind === 'categories' || kind === 'tags'
}

/** Which id space a kind draws from (posts share one, terms another: docs/architecture.md §2). */
export function idSpaceOf(kind: Kind): 'post' | 'term' {
  return isTermKind(kind) ? 'term' : 'post'
}

/** The fields a translation file may carry; everything else is read from the source (docs/architecture.md §2). */
export const TRANSLATABLE: Record<Kind, readonly string[]> = {
  events: ['title', 'slug', 'excerpt', 'cost', 'event_status_reason', 'description'],
  venues: ['venue', 'slug', 'description', 'address', 'city', 'country', 'province', 'state', 'stateprovince'],
  organizers: ['organizer', 'slug', 'description'],
  categories: ['name', 'slug', 'description'],
  tags: ['name', 'slug', 'description'],
}

/** The field that names a record of each kind. */
export const NAME_FIELD: Record<Kind, string> = {
  events: 'title',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'name',
  tags: 'name',
}

/** Front-matter key order of each kind, used when files are written so diffs stay small. */
export const KEY_ORDER: Record<Kind, readonly string[]> = {
  events: [
    'id',
    'title',
    'slug',
    'status',
    'trashed_from',
    'date',
    'date_utc',
    'modified',
    'author',
    'start_date',
    'end_date',
    'all_day',
    'timezone',
    'venue',
    'organizer',
    'categories',
    'tags',
    'cost',
    'website',
    'event_status',
    'event_status_reason',
    'previous_start_date',
    'attendance_mode',
    'online_url',
    'image',
    'excerpt',
    'featured',
    'sticky',
    'hide_from_listings',
    'show_map',
    'show_map_link',
    'ticketed',
    'post_parent',
    'password',
    'recurrence',
    'overrides',
  ],
  venues: [
    'id',
    'venue',
    'slug',
    'status',
    'trashed_from',
    'date',
    'date_utc',
    'modified',
    'author',
    'address',
    'city',
    'country',
    'province',
    'state',
    'zip',
    'phone',
    'website',
    'stateprovince',
    'geo_lat',
    'geo_lng',
    'show_map',
    'show_map_link',
    'image',
    'password',
  ],
  organizers: [
    'id',
    'organizer',
    'slug',
    'status',
    'trashed_from',
    'date',
    'date_utc',
    'modified',
    'author',
    'phone',
    'website',
    'email',
    'image',
    'password',
  ],
  categories: ['id', 'name', 'slug', 'parent'],
  tags: ['id', 'name', 'slug'],
}
