/** The known word closest to `word` when it is close enough to be a typo (at most 2 edits, fewer for short words). */
export function closest(word: string, known: readonly string[]): string | undefined {
  const limit = word.length <= 4 ? 1 : 2
  let best: { word: string; distance: number } | undefined
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase())
    if (distance <= limit && (!best || distance < best.distance)) best = { word: candidate, distance }
  }
  return best?.word
}

/** ` (did you mean x?)` for a close known word, else ''. */
export function didYouMean(word: string, known: readonly string[], show: (word: string) => string = (w) => w): string {
  const found = closest(word, known)
  return found === undefined ? '' : ` (did you mean ${show(found)}?)`
}

/** Edits (insert, delete, replace, swap of neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = best
    }
  }
  return rows[a.length]![b.length]!
}
