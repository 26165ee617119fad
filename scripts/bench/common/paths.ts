import { fileURLToPath } from 'node:url'

/** The repository's root: where `bin/almanac.js` is and `.bench/` is written. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
