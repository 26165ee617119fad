/** The cache of a bundle is this file beside it (lib/almanac.cjs.cache). */
export declare const CACHE_SUFFIX: string
/** Runs a CommonJS bundle with its code cache when one was made for exactly it; what became of the cache. */
export declare function runBundle(file: string, options?: { writeCache?: boolean }): 'none' | 'accepted' | 'rejected'
