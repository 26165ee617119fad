import type { Caller } from '../auth/roles.ts'
import type { Store, Transaction } from '../content/store.ts'
import type { Lang } from '../languages.ts'
import type { ParamContext } from '../args/validators.ts'
import type { MarkdownRenderer } from '../serialize/markdown.ts'

/** What every write needs: the store inside its transaction, who asks, in which language, and when. */
export interface WriteContext {
  store: Store
  tx: Transaction
  caller: Caller
  lang: Lang
  siteZone: string
  now: number
  paramContext: ParamContext
  /** The app's Markdown renderer, which a write warms with the texts it brings. */
  markdown: MarkdownRenderer
  /** A new id for a record of this request: never one the store holds, nor one handed out earlier in the same write. */
  allocateId(space: 'post' | 'term'): number
}

/** The context of one write, with its own id allocator (an event and its inline venue must not share an id). */
export function createWriteContext(fields: Omit<WriteContext, 'allocateId'>): WriteContext {
  const last = { post: 0, term: 0 }
  const allocateId = (space: 'post' | 'term') => (last[space] = Math.max(fields.store.nextId(space), last[space] + 1))
  return { ...fields, allocateId }
}
