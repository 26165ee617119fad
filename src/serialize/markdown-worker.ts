import { parentPort } from 'node:worker_threads'
import { createMarkdownIt } from './markdown-it.ts'

/** To the worker: a text to render. From it: its HTML, or why it could not be rendered. */
export type MarkdownJob = { id: number; markdown: string }
export type MarkdownReply = { id: number; html: string } | { id: number; error: string }

const render = createMarkdownIt()
parentPort!.on('message', ({ id, markdown }: MarkdownJob) => {
  try {
    parentPort!.postMessage({ id, html: render(markdown) } satisfies MarkdownReply)
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message } satisfies MarkdownReply)
  }
})
