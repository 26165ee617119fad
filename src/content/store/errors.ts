import { ApiError } from '../../errors.ts'

/** A write that would leave the tree invalid: nothing was written. */
export class CommitError extends Error {}

/** A write refused because its files changed on disk since the store read them (412: send it again). */
export class StaleFilesError extends ApiError {
  constructor(readonly paths: string[]) {
    super('precondition-failed', 412, `${paths.join(', ')} changed on disk since it was read; send the write again.`)
  }
}

/** A write whose file would hold more front matter than the store reads (MAX_FRONT_MATTER): nothing was written. */
export class FrontMatterTooLargeError extends ApiError {
  constructor(path: string, limit: number) {
    super(
      'rest_payload_too_large',
      413,
      `${path} would hold more than ${limit / 1024} KiB of front matter, which the store does not read; nothing was written.`,
    )
  }
}
