/** The opening fence of YAML front matter: `---` or `---yaml`, after a byte-order mark if there is one. */
const FENCE = /^(\uFEFF?---[ \t]*(?:ya?ml)?[ \t]*)(\r?\n)/i

/**
 * Adds `id: N` as the first line of a file's front matter, changing nothing else (a hand-written source
 * without one).
 */
export function withId(text: string, id: number): string {
  if (FENCE.test(text)) return text.replace(FENCE, `$1$2id: ${id}$2`)
  return `---\nid: ${id}\n---\n${text}`
}
