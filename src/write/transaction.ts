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
 * route's capability said so). Its rights are checked again first (`RouteInput.recheck`), as the store is now:
 * the users file or the record the path names may have changed since they were checked, before the body came.
 */
export function inTransaction<T>(
  ctx: RequestContext,
  input: { recheck: () => Promise<void> },
  work: (write: WriteContext) => Promise<T>,
): Promise<T> {
  return ctx.store.transaction(async (tx) => {
    await input.recheck()
    return work(createWriteContext(ctx, tx, ctx.caller!))
  })
}
