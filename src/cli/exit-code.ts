/** The exit code of a command whose promise never settled before the process ran out of work. */
export const UNSETTLED_EXIT = 13

/**
 * Ends the process with the code `done` settles to (0 leaves the code as it is), and with UNSETTLED_EXIT, said in
 * one line, when the process runs out of work before `done` settles: as Node ends an unsettled top-level await. The
 * bundle of lib/ is CommonJS (scripts/bundle.mjs), which has no top-level await to do it.
 */
export function exitWith(done: Promise<number>): void {
  let settled = false
  void done.then((code) => {
    settled = true
    if (code !== 0) process.exitCode = code
  })
  process.on('exit', (code) => {
    if (settled || code !== 0) return
    console.error('almanac: the command stopped before it finished')
    process.exitCode = UNSETTLED_EXIT
  })
}
