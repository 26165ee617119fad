// A render worker's entry: Node 20 cannot run TypeScript itself, so tsx loads the worker's module
// in this thread too (hooks registered on the main thread do not reach workers).
import { register } from 'tsx/esm/api'

register()
await import('./render-worker.ts')
