export declare const STAMP_FILE: string
export declare function sourceHash(src: string): string
export declare function compiledIsCurrent(src: string, lib: string): boolean
