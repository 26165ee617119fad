import type { Caller } from '../auth/roles.ts'
import type { Transaction } from '../content/store.ts'
import type { RequestContext } from '../context/request.ts'

/** What every write needs: the request's context, the store's transaction, and a caller who signed in. */
export interface WriteContext extends RequestContext {
  tx: Transaction
  caller: Caller
  /** A new id for a record of this request: never one the store holds, nor one handed out earlier in the same write. */
  allocateId(space: 'post' | 'term'): number
}

/** The context of one write, with its own id allocator (an event and its inline venue must not share an id). */
export function createWriteContext(ctx: RequestContext, tx: Transaction, caller: Caller): WriteContext {
  const last = { post: 0, term: 0 }
  const allocateId = (space: 'post' | 'term') => (last[space] = Math.max(ctx.store.nextId(space), last[space] + 1))
  return { ...ctx, tx, caller, allocateId }
}

/**
 * Runs a write as the store's only writer, with what the write modules need; the caller has signed in (the
 * route's capability said so).
 */
export function inTransaction<T>(ctx: RequestContext, work: (write: WriteContext) => Promise<T>): Promise<T> {
  return ctx.store.transaction((tx) => work(createWriteContext(ctx, tx, ctx.caller!)))
}
