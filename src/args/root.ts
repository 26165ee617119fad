import { NAMESPACE } from '../namespace.ts'
import type { ArgSet } from './types.ts'

// The arguments of the two index routes: the site's `/wp-json/` and the namespace's own index.

/** The API index's only argument, as WordPress declares it for `/wp-json/`. */
export const API_INDEX_ARGS: ArgSet = {
  context: { default: 'view', required: false },
}

export const ROOT_ARGS: ArgSet = {
  namespace: { default: NAMESPACE, required: false },
  context: { default: 'view', required: false },
}
