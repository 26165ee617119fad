/**
 * The post statuses WordPress registers, the usual ones first: the order a message about a bad
 * `status` lists them in. The one list the content schema, the argument validators and the lists'
 * visibility all read.
 */
export const STATUSES: readonly string[] = ['publish', 'draft', 'pending', 'private', 'future', 'trash']

/** What a record without a `status` is: hand-written files are published unless they say otherwise. */
export const DEFAULT_STATUS = 'publish'

/** A record's status from its front matter: the `status` it names, else `publish`. */
export function statusIn(data: Readonly<Record<string, unknown>>): string {
  const status = data.status
  return typeof status === 'string' ? status : DEFAULT_STATUS
}
