#!/usr/bin/env node
// Thin entry: runs lib/, src/ compiled to JavaScript (scripts/compile.mjs, on npm install, ci and
// pack), when it is the compilation of src/ as it is now; otherwise src/ itself, through tsx,
// since Node 20 cannot run TypeScript. Loading tsx and compiling at run time costs about half a
// second of every start, so installs compile once; an edit to src/ is never served stale. Of lib/,
// the bundle (lib/almanac.cjs, one file: about half the imports' time) when the compilation made one, run with the
// bytecode V8 compiled for it on install (bin/bundle.js).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { runBundle } from './bundle.js'
import { compiledIsCurrent } from './compiled.js'

const src = fileURLToPath(new URL('../src', import.meta.url))
const lib = fileURLToPath(new URL('../lib', import.meta.url))
if (compiledIsCurrent(src, lib)) {
  if (existsSync(`${lib}/almanac.cjs`)) runBundle(`${lib}/almanac.cjs`)
  else await import('../lib/cli/index.js')
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import('../src/cli/index.ts')
}
