import { createMarkdownRenderer, type MarkdownRenderer } from './markdown.ts'
import { createMemoCache, type MemoCache } from './memo.ts'

/**
 * What one app's serializers keep between requests: records' JSON and shapes, and rendered
 * Markdown. `createApp` makes one per app and hands it to every request through its `View`, so two
 * apps in one process share no cache, and a new app starts clean.
 */
export interface Caches {
  memo: MemoCache
  markdown: MarkdownRenderer
}

/** Fresh, empty caches for one app. */
export function createCaches(): Caches {
  return { memo: createMemoCache(), markdown: createMarkdownRenderer() }
}
