import type { Caller } from '../auth/roles.ts'
import type { Store, Transaction } from '../content/store.ts'
import type { Lang } from '../languages.ts'
import type { ParamContext } from '../schema/validators.ts'

/** What every write needs: the store inside its transaction, who asks, in which language, and when. */
export interface WriteContext {
  store: Store
  tx: Transaction
  caller: Caller
  lang: Lang
  siteZone: string
  now: number
  paramContext: ParamContext
}
