import type { Caller } from '../auth/roles.ts'
import type { Transaction } from '../content/store.ts'
import type { RequestContext } from '../context/request.ts'

/** What every write needs: the request's context, the store's transaction, and a caller who signed in. */
export interface WriteContext extends RequestContext {
  tx: Transaction
  caller: Caller
}

/** The context of one write: new records take their ids from the transaction (`tx.nextId`). */
export function createWriteContext(ctx: RequestContext, tx: Transaction, caller: Caller): WriteContext {
  return { ...ctx, tx, caller }
}

/**
 * Runs a write as the store's only writer, with what the write modules need; the caller has signed in (the
 * route's capability said so).
 */
export function inTransaction<T>(ctx: RequestContext, work: (write: WriteContext) => Promise<T>): Promise<T> {
  return ctx.store.transaction((tx) => work(createWriteContext(ctx, tx, ctx.caller!)))
}
