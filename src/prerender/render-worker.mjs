// A render worker's entry. Compiled (lib/, where this file is copied beside render-worker.js) it
// loads the JavaScript; in src/ Node 20 cannot run TypeScript itself, so tsx loads the worker's
// module in this thread too (hooks registered on the main thread do not reach workers).
import { existsSync } from 'node:fs'

const compiled = new URL('./render-worker.js', import.meta.url)
if (existsSync(compiled)) await import(compiled.href)
else {
  const { register } = await import('tsx/esm/api')
  register()
  await import('./render-worker.ts')
}
