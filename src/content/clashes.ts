/**
 * Records that lost an id or slug clash, by the key (`kind/stem`) of the record that won it.
 *
 * The rule for a clash: the record whose file comes first in path order wins; the other is blamed.
 * It does not depend on which file arrived first, so the server at start, the server as files
 * change under it, and `almanac check` always blame the same file. When a winner changes or goes,
 * its losers are settled again: a file blamed for a clash is served (and no longer listed by
 * /diagnostics) once the other file is deleted or fixed, as a restart would serve it.
 */
export interface Clashes {
  /** Remembers that `loser` lost to `winner`. */
  wait(winner: string, loser: string): void
  /** Marks a winner as changed or gone; its losers are settled again by the next `settleLosers`. */
  release(winner: string): void
  /** Settles the losers of released winners: call it once the winner's new state is in place. */
  settleLosers(): void
}

/** A problem that goes away when another file does: an id or a slug another record holds. */
export const isClash = (message: string): boolean => / is already used by /.test(message)

/** `settleAgain(key)` reads a loser's files again as they are and settles its record. */
export function createClashes(settleAgain: (key: string) => void): Clashes {
  const waiting = new Map<string, Set<string>>()
  const released: string[] = []
  let settling = false
  return {
    wait(winner, loser) {
      waiting.set(winner, (waiting.get(winner) ?? new Set<string>()).add(loser))
    },
    release: (winner) => void released.push(winner),
    // Each winner once per pass, so two records that each hold a slug the other wants do not loop.
    settleLosers() {
      if (settling) return
      settling = true
      const seen = new Set<string>()
      try {
        for (let winner = released.shift(); winner !== undefined; winner = released.shift()) {
          const losers = waiting.get(winner)
          if (!losers || seen.has(winner)) continue
          seen.add(winner)
          waiting.delete(winner)
          for (const loser of losers) settleAgain(loser)
        }
      } finally {
        settling = false
      }
    },
  }
}
