// "Did you mean": the known words nearest to a mistyped one, for CLI options, config keys and
// front-matter keys alike.

/** The first of the known words nearest to `word`, when one is near enough to be a typo. */
export function closest(word: string, known: readonly string[]): string | undefined {
  return closestKeys(word, known)[0]
}

/** ` (did you mean x?)` for a close known word, else ''. */
export function didYouMean(word: string, known: readonly string[], show: (word: string) => string = (w) => w): string {
  const found = closest(word, known)
  return found === undefined ? '' : ` (did you mean ${show(found)}?)`
}

/** Every known word nearest to `key` (ties included), when one is near enough to be what was meant. */
export function closestKeys(key: string, known: readonly string[]): string[] {
  const typed = canonical(key)
  let best = Infinity
  let found: string[] = []
  for (const candidate of known) {
    const distance = editDistance(typed, canonical(candidate), 2)
    if (distance > (candidate.length <= 4 ? 1 : 2) || distance > best) continue
    if (distance < best) found = []
    best = distance
    found.push(candidate)
  }
  return found
}

/** Case and `-`/space for `_` are the commonest slips: they cost nothing. */
function canonical(key: string): string {
  return key.toLowerCase().replace(/[- ]/g, '_')
}

/**
 * Edits (insert, delete, replace, swap two neighbours) from `a` to `b`; anything above `limit` is
 * `limit + 1`, found without the full table when the lengths alone say so (keys may be huge).
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, before[j - 2]! + 1)
    }
    before = previous
    previous = row
  }
  return Math.min(previous[b.length]!, limit + 1)
}
