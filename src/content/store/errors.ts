import { ApiError } from '../../errors.ts'

/** A write that would leave the tree invalid: nothing was written. */
export class CommitError extends Error {}

/** A write refused because its files changed on disk since the store read them (412: send it again). */
export class StaleFilesError extends ApiError {
  constructor(readonly paths: string[]) {
    super('precondition-failed', 412, `${paths.join(', ')} changed on disk since it was read; send the write again.`)
  }
}
