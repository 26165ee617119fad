/** Runs tasks one after another: one writer at a time, in the order they asked. */
export function createWriteQueue() {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task)
    tail = run.catch(() => {})
    return run
  }
}

/** A queue from `createWriteQueue`. */
export type WriteQueue = ReturnType<typeof createWriteQueue>
