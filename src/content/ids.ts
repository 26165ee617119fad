/** Adds `id: N` as the first line of a file's front matter, changing nothing else (a hand-written source without one). */
export function withId(text: string, id: number): string {
  if (/^---\r?\n/.test(text)) return text.replace(/^---(\r?\n)/, `---$1id: ${id}$1`)
  return `---\nid: ${id}\n---\n${text}`
}
