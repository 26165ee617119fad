/** How many failed logins a key (a login, or a client address) may have in a window. */
export interface LimitOptions {
  limit: number
  windowMs: number
  /** At most this many keys are remembered; the oldest go first, so an attacker cycling keys cannot grow memory. */
  maxKeys: number
  now: () => number
}

/** Counts failures per key in fixed windows; a key at its limit waits for its window to end. */
export interface FailureLimiter {
  /** Milliseconds until the key may try again; 0 when it may now. */
  waitFor(key: string): number
  /** Counts one attempt against the key (before the check, so concurrent attempts count too). */
  count(key: string): void
  /** Takes one attempt back (it succeeded). */
  forgive(key: string): void
  /** Forgets the key (its user logged in). */
  clear(key: string): void
  size(): number
}

export function createFailureLimiter(options: LimitOptions): FailureLimiter {
  const entries = new Map<string, { count: number; since: number }>()
  const live = (key: string) => {
    const entry = entries.get(key)
    if (entry && options.now() - entry.since >= options.windowMs) entries.delete(key)
    return entries.get(key)
  }
  return {
    waitFor(key) {
      const entry = live(key)
      return entry && entry.count >= options.limit ? entry.since + options.windowMs - options.now() : 0
    },
    count(key) {
      const entry = live(key)
      if (entry) {
        entry.count++
        return
      }
      if (entries.size >= options.maxKeys) entries.delete(entries.keys().next().value!)
      entries.set(key, { count: 1, since: options.now() })
    },
    forgive(key) {
      const entry = live(key)
      if (entry) entry.count = Math.max(0, entry.count - 1)
    },
    clear: (key) => void entries.delete(key),
    size: () => entries.size,
  }
}

/** A task the gate turned away: `maxWaiting` tasks were waiting already. */
export class GateFullError extends Error {}

/**
 * Runs at most `concurrency` tasks at once, the rest in turn: password checks leave the thread pool to file I/O.
 * At most `maxWaiting` wait; a task past them is refused (GateFullError) rather than queued for ever longer.
 */
export function createGate(concurrency: number, maxWaiting = Infinity): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  return async (task) => {
    // A finished task hands its slot straight to the next one waiting.
    if (running >= concurrency && waiting.length >= maxWaiting) throw new GateFullError('too many tasks waiting')
    if (running >= concurrency) await new Promise<void>((go) => waiting.push(go))
    else running++
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
}
