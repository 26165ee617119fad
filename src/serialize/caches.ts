import type { Caches } from '../context/caches.ts'
import { createMarkdownRenderer } from './markdown.ts'
import { createMemoCache } from './memo.ts'

/** Fresh, empty caches for one app. */
export function createCaches(): Caches {
  return { memo: createMemoCache(), markdown: createMarkdownRenderer() }
}
