/** The bundle's file name in lib/. */
export declare const BUNDLE_FILE: string
/** The text with every character outside ASCII written as a `\uXXXX` escape (see bundle.mjs). */
export declare function asciiOnly(text: string): string
/** Bundles lib/cli/index.js into lib/almanac.cjs; false where esbuild cannot be loaded. */
export declare function bundle(lib: string): Promise<boolean>
