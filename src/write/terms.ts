import { canManageTerms } from '../auth/roles.ts'
import { findBySlug } from '../content/lookup.ts'
import type { TermKind } from '../content/model/kinds.ts'
import type { ContentRecord } from '../content/store.ts'
import { ApiError, asParam, invalidParam } from '../errors.ts'
import { LANGUAGES } from '../languages.ts'
import { toList } from '../args/validators.ts'
import { planFiles, type Changes } from './changes.ts'
import type { WriteContext } from './transaction.ts'
import { deleteFiles, unlinkFromEvents } from './removal.ts'
import { slugify, uniqueSlug } from '../content/slugs.ts'
import { sanitizeChanges } from './sanitize.ts'

/**
 * An event's `categories` or `tags` as ids: ids that name nothing are skipped; text is
 * matched by slug, then name; text matching nothing creates the term, for callers who may manage
 * terms (for others it is skipped: an event write must not be a way around that right).
 */
export async function resolveTerms(kind: TermKind, value: unknown, ctx: WriteContext): Promise<number[]> {
  const ids: number[] = []
  for (const item of toList(value)) {
    let term: ContentRecord | undefined
    if (/^\d+$/.test(item)) term = ctx.store.get(kind, Number(item))
    else
      term =
        findBySlug(ctx, kind, item) ??
        byName(kind, item, ctx) ??
        (canManageTerms(ctx.caller, kind)
          ? await createTerm(kind, { name: item }, ctx).catch(refusedAs(kind))
          : undefined)
    if (term && !ids.includes(term.id)) ids.push(term.id)
  }
  return ids
}

/** A term made from an event's `categories` or `tags`, refused as that parameter. */
const refusedAs = (kind: TermKind) => (error: unknown) => {
  throw asParam(kind, error)
}

/** A term with this name (any case) under this parent, as WordPress's `term_exists` finds it. */
export function byName(kind: TermKind, name: string, ctx: WriteContext, parent?: number): ContentRecord | undefined {
  const wanted = name.trim().toLowerCase()
  return ctx.store.list(kind).find((term) => {
    const sameParent = parent === undefined || (Number(term.source.data.parent) || 0) === parent
    return sameParent && String(term.source.data.name).toLowerCase() === wanted
  })
}

/**
 * The parent a write names, looked for again in its transaction: the argument check found it, but a DELETE ahead
 * in the queue may have removed it since. Then the answer is that check's for a parent that is not there.
 */
function requireParent(parent: number, ctx: WriteContext): void {
  if (parent && !ctx.store.get('categories', parent)) throw invalidParam('parent')
}

/** Creates a category or tag; 400 `term_exists` when the name is taken under the same parent, as WordPress answers. */
export async function createTerm(
  kind: TermKind,
  params: Record<string, unknown>,
  ctx: WriteContext,
): Promise<ContentRecord> {
  const name = String(params.name)
  const parent = kind === 'categories' ? Number(params.parent ?? 0) : 0
  requireParent(parent, ctx)
  const twin = byName(kind, name, ctx, parent)
  if (twin) {
    const where = kind === 'categories' ? 'with this parent' : 'in this taxonomy'
    throw new ApiError(
      'term_exists',
      400,
      `A term with the name provided already exists ${where}.`,
      { term_id: twin.id },
      {
        additional: [twin.id, twin.id],
      },
    )
  }
  const id = ctx.tx.nextId('term')
  const changes: Changes = { id, name, slug: uniqueSlug(ctx.store, kind, ctx.lang, termSlug(params.slug, name), id) }
  if (parent) changes.parent = parent
  if (params.description !== undefined) changes.description = String(params.description)
  sanitizeChanges(changes, ctx)
  const files = planFiles(kind, undefined, ctx.lang, changes)
  return (await ctx.tx.commit(kind, ctx.store.newStem(kind, String(changes.slug), id), files))!
}

/**
 * Updates a term: only the fields sent; a slug another term holds, in any language, is 400
 * (docs/compatibility.md §23).
 */
export async function updateTerm(
  kind: TermKind,
  term: ContentRecord,
  params: Record<string, unknown>,
  given: Set<string>,
  ctx: WriteContext,
) {
  const changes: Changes = {}
  if (given.has('name')) changes.name = String(params.name)
  if (given.has('description')) changes.description = String(params.description)
  if (given.has('parent')) {
    changes.parent = Number(params.parent) || null
    requireParent(Number(params.parent) || 0, ctx)
  }
  if (given.has('slug')) {
    const slug = termSlug(params.slug, String(changes.name ?? term.source.data.name ?? ''))
    // A slug is served in every language a term has no file in, so it must be free in all of them.
    const holder = LANGUAGES.map((lang) => ctx.store.bySlug(kind, lang, slug)).find(
      (found) => found && found.id !== term.id,
    )
    if (holder) {
      // The reference answers 500 with null data; a taken slug is the caller's mistake, so Almanac says 400.
      throw new ApiError(
        'duplicate_term_slug',
        400,
        `The slug &#8220;${slug}&#8221; is already in use by another term.`,
      )
    }
    changes.slug = slug
  }
  sanitizeChanges(changes, ctx)
  return (await ctx.tx.commit(kind, term.stem, planFiles(kind, term, ctx.lang, changes)))!
}

/** Deletes a term for good: out of every event that has it, its children moved up to its parent. */
export async function deleteTerm(kind: TermKind, term: ContentRecord, ctx: WriteContext): Promise<void> {
  await unlinkFromEvents(kind, term.id, ctx)
  if (kind === 'categories') {
    const parent = Number(term.source.data.parent) || undefined
    for (const child of ctx.store.list('categories').filter((c) => c.source.data.parent === term.id)) {
      await ctx.tx.commit('categories', child.stem, {
        [child.source.lang]: { data: { ...child.source.data, parent }, body: child.source.body },
      })
    }
  }
  await deleteFiles(term, ctx)
}

/**
 * A term's slug from the one sent, or from its name when none is sent or nothing of it is left (WordPress's
 * `sanitize_title` fallback).
 */
function termSlug(sent: unknown, name: string): string {
  return (sent === undefined ? '' : slugify(String(sent))) || slugify(name) || 'untitled'
}
