import { appOver, ask, checkErrors, USER_LIST, type User } from './harness.ts'
import { idTaken, POST_KINDS, postsOf, TERM_KINDS, type Model } from './model.ts'
import { fail, type Real } from './observe.ts'
import { withLang } from './writes.ts'

/** One caller of every role, and anonymous: whose answers the fresh store must repeat. */
const CALLERS: (User | null)[] = [
  null,
  ...USER_LIST.filter((u, i) => USER_LIST.findIndex((v) => v.role === u.role) === i),
]

/** Every GET the model knows of: each record by id (deleted ones too) and by slug, and every list. */
function paths(model: Model, lang: string): string[] {
  const all: string[] = []
  for (const kind of POST_KINDS) {
    for (const record of postsOf(model, kind)) {
      all.push(`${kind}/${record.id}`)
      // The model knows slugs in the default language; elsewhere they are mostly unknown slugs (400).
      if (record.slug && lang === 'en') all.push(`${kind}/by-slug/${encodeURIComponent(record.slug)}`)
    }
    for (const id of model.gone.get(kind) ?? []) all.push(`${kind}/${id}`)
    all.push(`${kind}?per_page=50`, kind)
  }
  for (const kind of TERM_KINDS) {
    for (const t of model.terms.values()) if (t.kind === kind) all.push(`${kind}/${t.id}`)
    for (const id of model.gone.get(kind) ?? []) all.push(`${kind}/${id}`)
    all.push(kind, `${kind}?per_page=50&hide_empty=false`)
  }
  return all
}

const HEADERS = ['etag', 'x-tec-total', 'x-tec-totalpages', 'allow']

/**
 * At the end of a run: a store loaded afresh from the same tree answers every GET byte for byte
 * as the running one, for every caller and language used; and `almanac check` finds no error.
 */
export async function sameAfterReload(model: Model, real: Real): Promise<void> {
  const errors = await checkErrors(real.content)
  if (errors.length) fail(real, `almanac check reports errors on the tree:\n    ${errors.join('\n    ')}`)
  const fresh = await appOver(real.content, real.users)
  if (fresh.problems.length)
    fail(real, `a fresh store reports problems: ${fresh.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`)
  for (const lang of model.langs) {
    for (const u of CALLERS) {
      for (const path of paths(model, lang)) {
        const full = withLang(path, lang)
        const [live, again] = [await ask(real.app, 'GET', full, u), await ask(fresh, 'GET', full, u)]
        if (live.status >= 500 || again.status >= 500)
          fail(
            real,
            `GET ${full} as ${u?.login ?? 'anonymous'} answered ${live.status} live, ${again.status} after a reload`,
          )
        const differs =
          live.status !== again.status ||
          live.text !== again.text ||
          HEADERS.some((h) => live.headers.get(h) !== again.headers.get(h))
        if (differs) {
          fail(
            real,
            `GET ${full} as ${u?.login ?? 'anonymous'} differs after a reload:\n    live   ${live.status} ${live.text.slice(0, 400)}\n    reload ${again.status} ${again.text.slice(0, 400)}`,
          )
        }
      }
    }
  }
}

/** After a restart, new records still get ids never given before, in both id spaces (high-water marks). */
export async function idsNotReusedAfterReload(model: Model, real: Real): Promise<void> {
  const fresh = await appOver(real.content, real.users)
  const admin = USER_LIST[0]!
  for (const [path, body, space] of [
    ['organizers', { organizer: 'After Restart' }, 'post'],
    ['tags', { name: 'After Restart' }, 'term'],
  ] as const) {
    const answer = await ask(fresh, 'POST', path, admin, body)
    if (answer.status !== 201) fail(real, `POST ${path} after a reload answered ${answer.status}`, answer)
    if (idTaken(model, space, answer.body.id))
      fail(real, `POST ${path} after a reload reused the id ${answer.body.id}`, answer)
  }
}
