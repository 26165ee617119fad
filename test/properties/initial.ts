import type { App } from '../../src/app.ts'
import type { Store } from '../../src/content/store.ts'
import { POST_KINDS, TERM_KINDS, type Model } from './model.ts'

const NAME = { events: 'title', venues: 'venue', organizers: 'organizer' } as const
const ids = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : [])

/** The model of the fixture tree as loaded: every record's owner, status, slug and links. */
export function modelOfTree(model: Model, app: App & { store?: Store }): void {
  const store = app.store!
  for (const kind of POST_KINDS) {
    for (const record of store.list(kind)) {
      const data = record.source.data
      model.posts.set(record.id, {
        kind,
        id: record.id,
        owner: Number(data.author) || 0,
        status: String(data.status ?? 'publish'),
        slug: String(data.slug ?? ''),
        name: String(data[NAME[kind]]),
        phone: kind === 'events' ? '' : String(data.phone ?? ''),
        venue: ids(data.venue),
        organizer: ids(data.organizer),
        categories: ids(data.categories),
        tags: ids(data.tags),
        password: data.password ? String(data.password) : '',
        ...(typeof data.trashed_from === 'string' ? { trashedFrom: data.trashed_from } : {}),
      })
    }
  }
  for (const kind of TERM_KINDS)
    for (const record of store.list(kind))
      model.terms.set(record.id, { kind, id: record.id, name: String(record.source.data.name) })
}
