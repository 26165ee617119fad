import type { IncomingMessage, ServerResponse } from 'node:http'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** How long a server that nobody has asked anything waits before it starts its watcher all the same. */
export const QUIET_MS = 250
/** The longest it waits: a request that never finishes (a body sent a byte a minute) must not keep edits unseen. */
export const LONGEST_MS = 5_000

/**
 * When the server may start its content watcher: after its first answer, or once QUIET_MS have
 * passed with no request under way. chokidar's first scan of a big tree costs seconds of CPU (it
 * stats and watches every file: about 4 s for 42,000 files), which on one core would delay the
 * first answer by as much. Nothing is missed meanwhile: once the watcher sees the tree, the store
 * re-reads whatever changed since it was loaded (ContentWatch.ready, Store.reconcile).
 */
export function createFirstAnswer() {
  let underWay = 0
  let done = false
  let answered: () => void = () => {}
  const first = new Promise<void>((resolve) => {
    answered = () => {
      done = true
      resolve()
    }
  })
  return {
    /** The handler, noting each request under way until the first answer has gone out (then nothing more). */
    wrap(handler: Handler): Handler {
      return (req, res) => {
        if (!done) {
          underWay++
          res.once('close', () => {
            underWay--
            answered()
          })
        }
        handler(req, res)
      }
    },
    /** Resolves at the first answer, after `quietMs` when no request is under way then, or after `longestMs`. */
    settled(quietMs = QUIET_MS, longestMs = LONGEST_MS): Promise<void> {
      return new Promise((resolve) => {
        void first.then(resolve)
        setTimeout(() => underWay === 0 && resolve(), quietMs).unref()
        setTimeout(resolve, longestMs).unref()
      })
    },
  }
}
