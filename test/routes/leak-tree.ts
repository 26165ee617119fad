import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'

/**
 * A generated content tree for the leak properties. Records that are not public (draft, pending,
 * private, future, trash) carry a unique marker word in every text field; published records with a
 * password carry markers in every field the blanking hides (docs/compatibility.md §30; a venue's `state` is not among
 * them, nor a published record's title or slug). Public records carry none. Owners are users 1–4
 * of `writableApp` (admin, editor, author, contributor), so a contributor or author may own some.
 */
export interface LeakTree {
  /** The folder holding `content/`. */
  dir: string
  /** Every marker, with the owner of the record it hides in. */
  markers: Map<string, number>
  events: number[]
  venues: number[]
  organizers: number[]
  categories: number[]
  tags: number[]
  /** Slugs of every post, markers included, for by-slug requests. */
  slugs: { kind: 'events' | 'venues' | 'organizers'; slug: string }[]
  /** What decides who may see each post. */
  posts: Map<number, PostFacts>
}

/** The facts of a post a model of visibility needs. */
export interface PostFacts {
  status: string
  author: number
  protected: boolean
}

/** Whether a caller (the owner id of a contributor or author, else undefined) may read a post at all. */
export function readableBy(post: PostFacts | undefined, owner: number | undefined): boolean {
  return post !== undefined && (post.status === 'publish' || post.author === owner)
}

const STATUSES = ['publish', 'publish', 'publish', 'draft', 'pending', 'private', 'future', 'trash'] as const

const postSpec = fc.record({
  status: fc.constantFrom(...STATUSES),
  password: fc.boolean(),
  author: fc.constantFrom(1, 2, 3, 4),
  day: fc.integer({ min: 0, max: 50 }),
  venue: fc.option(fc.nat(), { nil: undefined }),
  organizers: fc.array(fc.nat(), { maxLength: 2 }),
  categories: fc.array(fc.nat(), { maxLength: 2 }),
  tags: fc.array(fc.nat(), { maxLength: 1 }),
  featured: fc.boolean(),
  translation: fc.constantFrom(undefined, 'ms', 'zh-hans'),
})
type PostSpec = typeof postSpec extends fc.Arbitrary<infer T> ? T : never

/** The specs of a tree: events, venues and organizers (terms are public records, generated plain). */
export const treeSpec = fc.record({
  events: fc.array(postSpec, { minLength: 6, maxLength: 14 }),
  venues: fc.array(postSpec, { minLength: 3, maxLength: 6 }),
  organizers: fc.array(postSpec, { minLength: 3, maxLength: 6 }),
})
export type TreeSpec = typeof treeSpec extends fc.Arbitrary<infer T> ? T : never

/** A later state of a tree: each post's status and password drawn again, the rest (ids, links) as they were. */
export const laterSpec = (spec: TreeSpec): fc.Arbitrary<TreeSpec> => {
  const again = (posts: PostSpec[]) =>
    fc.tuple(
      ...posts.map((post) =>
        fc
          .record({ status: fc.constantFrom(...STATUSES), password: fc.boolean() })
          .map((drawn): PostSpec => ({ ...post, ...drawn })),
      ),
    )
  return fc
    .tuple(again(spec.events), again(spec.venues), again(spec.organizers))
    .map(([events, venues, organizers]) => ({ events, venues, organizers }))
}

/** Markers: the same length, lower-case letters only, so none is part of another or of an ordinary word. */
function markerMaker(markers: Map<string, number>) {
  let next = 0
  return (owner: number) => {
    let n = next++
    let letters = ''
    for (let i = 0; i < 5; i++, n = Math.floor(n / 26)) letters += String.fromCharCode(97 + (n % 26))
    const marker = `zq${letters}x`
    markers.set(marker, owner)
    return marker
  }
}

const yaml = (data: Record<string, unknown>) =>
  Object.entries(data)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n')

const file = (data: Record<string, unknown>, body: string) => `---\n${yaml(data)}\n---\n${body}\n`

/** Writes a tree from its specs into a new temporary folder. */
export async function writeLeakTree(spec: TreeSpec): Promise<LeakTree> {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-leaks-'))
  const content = join(dir, 'content')
  for (const kind of ['events', 'venues', 'organizers', 'categories', 'tags'])
    await mkdir(join(content, kind), { recursive: true })
  const markers = new Map<string, number>()
  const marker = markerMaker(markers)
  const tree: LeakTree = {
    dir,
    markers,
    events: [],
    venues: [],
    organizers: [],
    categories: [1, 2, 3],
    tags: [4, 5],
    slugs: [],
    posts: new Map(),
  }
  const put = (kind: string, stem: string, lang: string, text: string) =>
    writeFile(join(content, kind, `${stem}.${lang}.md`), text)
  for (const [i, name] of ['Music', 'Theatre', 'Dance'].entries())
    await put('categories', `c${i}`, 'en', file({ id: i + 1, name, slug: name.toLowerCase() }, `${name} events`))
  for (const [i, name] of ['Outdoor', 'Free'].entries())
    await put('tags', `t${i}`, 'en', file({ id: i + 4, name, slug: name.toLowerCase() }, `${name} things`))

  let id = 100
  tree.venues = spec.venues.map(() => id++)
  tree.organizers = spec.organizers.map(() => id++)
  tree.events = spec.events.map(() => id++)
  for (const [i, post] of spec.venues.entries()) await writePost('venues', tree.venues[i]!, post)
  for (const [i, post] of spec.organizers.entries()) await writePost('organizers', tree.organizers[i]!, post)
  for (const [i, post] of spec.events.entries()) await writePost('events', tree.events[i]!, post)
  return tree

  async function writePost(kind: 'events' | 'venues' | 'organizers', postId: number, post: PostSpec) {
    const hidden = post.status !== 'publish'
    const locked = !hidden && post.password
    const secret = (plain: string) => (hidden || locked ? `${plain} ${marker(post.author)}` : plain)
    const always = (plain: string) => (hidden ? `${plain} ${marker(post.author)}` : plain)
    const slug = hidden ? `${kind}-${postId}-${marker(post.author)}` : `${kind}-${postId}`
    tree.slugs.push({ kind, slug })
    tree.posts.set(postId, { status: post.status, author: post.author, protected: post.password })
    const common = {
      id: postId,
      slug,
      status: post.status,
      date: post.status === 'future' ? '2026-12-30 10:00:00' : '2026-11-01 10:00:00',
      author: post.author,
      password: post.password ? `pw-${postId}` : undefined,
    }
    const fields = FIELDS[kind](post, postId, tree, secret, always)
    const description = `Description ${secret('words')} and ${secret('more')}`
    await put(kind, `p${postId}`, 'en', file({ ...common, ...fields }, description))
    if (post.translation) {
      const translated = TRANSLATED[kind](secret, always)
      await put(
        kind,
        `p${postId}`,
        post.translation,
        file({ slug: `${slug}-${post.translation}`, ...translated }, `Terjemahan ${secret('kata')}`),
      )
    }
  }
}

type Text = (plain: string) => string

const pick = (ids: number[], n: number | undefined) =>
  n === undefined || ids.length === 0 ? undefined : ids[n % ids.length]

const FIELDS = {
  events: (post: PostSpec, id: number, tree: LeakTree, secret: Text, always: Text) => ({
    title: always(`Event ${id}`),
    start_date: `2026-12-${String(1 + (post.day % 28)).padStart(2, '0')} 19:00:00`,
    end_date: `2026-12-${String(1 + (post.day % 28)).padStart(2, '0')} 21:00:00`,
    timezone: 'UTC',
    venue: pick(tree.venues, post.venue) === undefined ? undefined : [pick(tree.venues, post.venue)],
    organizer: [...new Set(post.organizers.map((n) => pick(tree.organizers, n)))],
    categories: [...new Set(post.categories.map((n) => pick(tree.categories, n)))],
    tags: [...new Set(post.tags.map((n) => pick(tree.tags, n)))],
    featured: post.featured,
    excerpt: secret('Excerpt'),
    cost: secret('15'),
    website: `http://example.com/${secret('site').replace(' ', '-')}`,
    // An event's status stays readable; its reason and online address are blanked (docs/compatibility.md §32).
    event_status: post.featured ? 'cancelled' : undefined,
    event_status_reason: secret('Reason'),
    attendance_mode: 'mixed',
    online_url: `https://stream.example.com/${secret('live').replace(' ', '-')}`,
  }),
  venues: (_post: PostSpec, id: number, _tree: LeakTree, secret: Text, always: Text) => ({
    venue: secret(`Venue ${id}`),
    address: secret('1 Road'),
    city: secret('City'),
    country: secret('Country'),
    province: secret('Province'),
    state: always('State'),
    zip: secret('12345'),
    phone: secret('+65 1234'),
    website: `http://example.com/${secret('venue').replace(' ', '-')}`,
    geo_lat: 1.3,
    geo_lng: 103.8,
  }),
  organizers: (_post: PostSpec, id: number, _tree: LeakTree, secret: Text) => ({
    organizer: secret(`Organizer ${id}`),
    phone: secret('+65 5678'),
    email: `${secret('org').replace(' ', '.')}@example.com`,
    website: `http://example.com/${secret('org').replace(' ', '-')}`,
  }),
}

const TRANSLATED = {
  events: (secret: Text, always: Text) => ({
    title: always('Acara'),
    excerpt: secret('Ringkasan'),
    cost: secret('20'),
    event_status_reason: secret('Sebab'),
  }),
  venues: (secret: Text) => ({ venue: secret('Dewan'), address: secret('Jalan'), city: secret('Bandar') }),
  organizers: (secret: Text) => ({ organizer: secret('Penganjur') }),
}

/** The markers in a text that the request itself did not name (an echoed search is not a leak). */
export function leakedMarkers(text: string, markers: Map<string, number>, requested: string, owner?: number): string[] {
  const lower = text.toLowerCase()
  const found: string[] = []
  for (const [marker, markerOwner] of markers) {
    if (owner !== undefined && markerOwner === owner) continue
    if (lower.includes(marker) && !requested.toLowerCase().includes(marker)) found.push(marker)
  }
  return found
}
