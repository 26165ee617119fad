import type { MarkdownRenderer } from '../context/caches.ts'
import type { ContentRecord } from '../content/model/record-types.ts'
import { OFF_THREAD_FROM } from './markdown.ts'
import { text } from './record.ts'

// The texts of a record that the serializers render (`event.ts`, `event-json-ld.ts`, `linked.ts`), as they
// ask for them: a held text is found by its characters, so these must be the very strings they render.

/**
 * Holds a record's long texts (every language's body, its first paragraph, and excerpt) in the renderer, rendered
 * off the event loop, for as long as the record is served (`releaseRecordMarkdown`). Undefined when it has none:
 * nearly every record, and a start asks this of each (a promise and a few arrays per record made were ~20 MB of
 * garbage at 10,000 events).
 */
export function holdRecordMarkdown(markdown: MarkdownRenderer, record: ContentRecord): Promise<void> | undefined {
  let waits: Promise<void>[] | undefined
  eachLongText(record, (text) => {
    const ready = markdown.hold(text)
    if (ready) (waits ??= []).push(ready)
  })
  return waits && Promise.all(waits).then(() => {})
}

/** Lets go of what `holdRecordMarkdown` held for a record that is no longer served (a changed record is another). */
export function releaseRecordMarkdown(markdown: MarkdownRenderer, record: ContentRecord): void {
  eachLongText(record, (text) => markdown.release(text))
}

/**
 * Each long text of a record, the same ones every time it is asked (records never change). An occurrence of a series
 * gives only the texts its overrides change: the rest are the series' own, held while the series is served, which
 * it is as long as its occurrences are; a series of 500 occurrences does not count each text 500 times.
 */
function eachLongText(record: ContentRecord, visit: (text: string) => void): void {
  const parent = record.series?.parent
  for (const file of record.files.values()) {
    const its = parent?.files.get(file.lang)
    const excerpt = text(file.data.excerpt)
    if (excerpt.length >= OFF_THREAD_FROM && (!its || excerpt !== text(its.data.excerpt))) visit(excerpt)
    // Most bodies are short: they are rendered when asked for, and need not even be split here.
    if (file.body.length >= OFF_THREAD_FROM && file.body !== its?.body) {
      visit(file.body)
      // As JSON-LD takes it (`event-json-ld.ts`); a limit of one stops the split there, with the same first part.
      visit(file.body.split(/\n\s*\n/, 1)[0] ?? '')
    }
  }
}
