/**
 * Records that lost an id or slug clash, by the key (`kind/stem`) of the record that won it.
 *
 * The rule for a clash: the record whose file comes first in path order wins; the other is blamed.
 * It does not depend on which file arrived first, so the server at start, the server as files
 * change under it, and `almanac check` always blame the same file. When a winner changes or goes,
 * its losers are settled again: a file blamed for a clash is served (and no longer listed by
 * /diagnostics) once the other file is deleted or fixed, as a restart would serve it.
 *
 * A blamed file is left out: a source that loses its id or slug leaves its record unserved, a
 * translation that loses its slug leaves its language to fall back as if the file were not there.
 * A record that loses a slug it held to a file that comes earlier is settled again (`recheck`).
 */
export interface Clashes {
  /** Remembers that `loser` lost to `winner`. */
  wait(winner: string, loser: string): void
  /** Marks a winner as changed or gone; its losers are settled again by the next `settleLosers`. */
  release(winner: string): void
  /** Marks a record as having just lost a slug it held: it is settled again by the next `settleLosers`. */
  recheck(loser: string): void
  /** Settles the losers of released winners: call it once the winner's new state is in place. */
  settleLosers(): void
}

/** How often one record is settled again in one pass, at most. */
const MAX_RECHECKS = 4

/** What a blamed file's message adds: which file keeps an id or slug, and how to settle it. */
export const ID_HINT =
  '; of two files the one whose path sorts first keeps an id, so remove the id: line of this one and run almanac check --fix'
export const SLUG_HINT = '; of two files the one whose path sorts first keeps a slug, so give this one another'

/** Of two files of a record in one language (`x.md` is the default language's, as `x.en.md` is), the second's. */
export const secondFileMessage = (first: string, lang: string): string =>
  `${first} is this record's ${lang} file already, so this one is not read`

/**
 * A problem that goes away when another file does: an id or a slug another record holds, or a language another file
 * of the record holds.
 */
export const isClash = (message: string): boolean =>
  / is already used by /.test(message) || / file already, so this one is not read$/.test(message)

/** `settleAgain(key)` reads a loser's files again as they are and settles its record. */
export function createClashes(settleAgain: (key: string) => void): Clashes {
  const waiting = new Map<string, Set<string>>()
  const released: string[] = []
  const rechecks: string[] = []
  let settling = false
  // Records that just lost a slug go first, then the losers of each released winner.
  const nextStep = (): { key: string; recheck: boolean } | undefined => {
    const loser = rechecks.shift()
    if (loser !== undefined) return { key: loser, recheck: true }
    const winner = released.shift()
    return winner === undefined ? undefined : { key: winner, recheck: false }
  }
  const losersOf = (winner: string): Set<string> => {
    const losers = waiting.get(winner) ?? new Set<string>()
    waiting.delete(winner)
    return losers
  }
  return {
    wait(winner, loser) {
      waiting.set(winner, (waiting.get(winner) ?? new Set<string>()).add(loser))
    },
    release: (winner) => void released.push(winner),
    recheck: (loser) => void rechecks.push(loser),
    // Each winner once per pass, and each loser a few times, so records that each hold a slug the
    // other wants do not loop.
    settleLosers() {
      if (settling) return
      settling = true
      const seen = new Set<string>()
      const rechecked = new Map<string, number>()
      try {
        for (let step = nextStep(); step; step = nextStep()) {
          const times = (rechecked.get(step.key) ?? 0) + 1
          if (step.recheck) rechecked.set(step.key, times)
          if (step.recheck ? times > MAX_RECHECKS : seen.has(step.key)) continue
          if (!step.recheck) seen.add(step.key)
          for (const loser of step.recheck ? [step.key] : losersOf(step.key)) settleAgain(loser)
        }
      } finally {
        settling = false
      }
    },
  }
}
