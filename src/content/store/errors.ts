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

/** A new record that cannot have an id: the tree holds the highest id its space allows (409: nothing was written). */
export class NoIdLeftError extends ApiError {
  constructor(space: 'post' | 'term', highest: number, byMark: boolean) {
    const noun = space === 'post' ? 'event, venue or organizer' : 'category or tag'
    const why = byMark
      ? `content/.ids.yaml says id ${highest}, the highest there may be, was used, and ids are never reused. Put back the highest id the tree ever used there`
      : `the tree holds id ${highest}, the highest there may be, and ids are never reused. Give that record or media file a lower id`
    super('rest_no_ids_left', 409, `No id is left for a new ${noun}: ${why}; nothing was written.`)
  }
}
