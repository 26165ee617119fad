/**
 * Names heard from the watcher's thread, gathered for `ms` after the first of a batch and then handed on
 * together: a `git checkout` arrives as a few batches, not a thousand. A name whose file is missing (or, as
 * the caller tells, still empty) when its batch is due is held one batch more. git replaces a file by removing
 * it, making the new one and then writing it, and a batch read in between lost that file for a moment: an event
 * whose source it was left the API and "no file of this record has an id" was logged for its translations (87
 * times in one checkout of 1,000 files; 4 with missing files held, all of them empty files read). A file still
 * missing a batch later is handed on, so a deletion is told `ms` later than a change.
 *
 * A batch is checked CHECKED_AT_ONCE names at a time, a turn of the event loop each: a checkout of the whole
 * tree (41,920 names) checked in one turn held the loop 87–101 ms; in slices, no turn took more than ~6 ms, and
 * the batch went on as soon. Names heard while a batch is checked wait for the next one, due `ms` after.
 */
export function gatherNames(ms: number, hand: (paths: string[]) => void, missing: (path: string) => boolean) {
  let pending = new Set<string>()
  let held = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let checking = false
  let stopped = false
  // A check that throws must not keep its name pending for good, wedging every batch after it: handed on now.
  const isMissing = (path: string) => {
    try {
      return missing(path)
    } catch {
      return false
    }
  }
  const missingAmong = async (names: string[]) => {
    const found: string[] = []
    for (let at = 0; at < names.length; at += CHECKED_AT_ONCE) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve))
      if (stopped) break
      for (const path of names.slice(at, at + CHECKED_AT_ONCE)) if (isMissing(path)) found.push(path)
    }
    return found
  }
  const due = async () => {
    timer = undefined
    checking = true
    const names = [...pending]
    pending = new Set()
    const waiting = await missingAmong(names.filter((path) => !held.has(path)))
    checking = false
    if (stopped) return
    held = new Set(waiting)
    for (const path of waiting) pending.add(path)
    if (pending.size > 0) timer = setTimeout(due, ms)
    const batch = names.filter((path) => !held.has(path))
    if (batch.length > 0) hand(batch)
  }
  return {
    add(paths: string[]) {
      if (stopped) return
      for (const path of paths) pending.add(path)
      if (!checking) timer ??= setTimeout(due, ms)
    },
    /**
     * Drops whatever is pending, and whatever comes later: the watcher's thread goes on posting names it heard
     * until it has closed, and a batch handed on then would reach a store its owner has let go. A check under
     * way stops at its next slice and hands nothing on.
     */
    stop() {
      stopped = true
      clearTimeout(timer)
      timer = undefined
    },
  }
}

/** How many names of a batch are checked together: each slice is one short turn of the event loop. */
export const CHECKED_AT_ONCE = 512
