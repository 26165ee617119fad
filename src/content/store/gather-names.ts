/**
 * Names heard from the watcher's thread, gathered for `ms` after the first of a batch and then handed on
 * together: a `git checkout` arrives as a few batches, not a thousand. A name whose file is missing (or, as
 * the caller tells, still empty) when its batch is due is held one batch more. git replaces a file by removing
 * it, making the new one and then writing it, and a batch read in between lost that file for a moment: an event
 * whose source it was left the API and "no file of this record has an id" was logged for its translations (87
 * times in one checkout of 1,000 files; 4 with missing files held, all of them empty files read). A file still
 * missing a batch later is handed on, so a deletion is told `ms` later than a change.
 */
export function gatherNames(ms: number, hand: (paths: string[]) => void, missing: (path: string) => boolean) {
  let pending = new Set<string>()
  let held = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  // A check that throws must not keep its name pending for good, wedging every batch after it: handed on now.
  const isMissing = (path: string) => {
    try {
      return missing(path)
    } catch {
      return false
    }
  }
  const due = () => {
    timer = undefined
    const names = [...pending]
    const waiting = names.filter((path) => !held.has(path) && isMissing(path))
    held = new Set(waiting)
    pending = new Set(waiting)
    if (pending.size > 0) timer = setTimeout(due, ms)
    const batch = names.filter((path) => !held.has(path))
    if (batch.length > 0) hand(batch)
  }
  return {
    add(paths: string[]) {
      if (stopped) return
      for (const path of paths) pending.add(path)
      timer ??= setTimeout(due, ms)
    },
    /**
     * Drops whatever is pending, and whatever comes later: the watcher's thread goes on posting names it heard
     * until it has closed, and a batch handed on then would reach a store its owner has let go.
     */
    stop() {
      stopped = true
      clearTimeout(timer)
      timer = undefined
    },
  }
}
