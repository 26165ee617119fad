/** Writes the code cache of `bundle` from a build of `content`; why not (a line to print) when it could not. */
export declare function writeCodeCache(bundle: string, content: string): string | undefined
