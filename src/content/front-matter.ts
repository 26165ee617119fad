import matter from 'gray-matter'
import jsYaml from 'js-yaml'

/** A content file split into its front matter and its Markdown body. */
export interface ParsedFile {
  data: Record<string, unknown>
  body: string
}

// YAML 1.1's timestamp type would turn `2026-07-14 19:00:00` into a UTC Date and lose the wall clock.
// The core schema has no timestamps, so dates stay the strings the editor wrote. js-yaml is
// gray-matter's own engine (about 5x faster than `yaml` at parsing), so loading stays quick.
const ENGINES = {
  yaml: (text: string) => jsYaml.safeLoad(text, { schema: jsYaml.CORE_SCHEMA }) as object,
}

/** Parses a Markdown file with YAML front matter; throws with the YAML reason when it is malformed. */
export function parseFrontMatter(text: string): ParsedFile {
  const { data, content } = matter(text, { engines: ENGINES })
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new Error('front matter must be a mapping of keys to values')
  }
  return { data: { ...data }, body: content.replace(/^\r?\n/, '').replace(/\s+$/, '') }
}
