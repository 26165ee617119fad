import type { RequestContext } from '../context/request.ts'

/**
 * What a list query reads of a request besides its parameters: the records and indexes, the language, the
 * clock, who reads.
 */
export type QueryScope = Pick<
  RequestContext,
  'store' | 'indexes' | 'lang' | 'site' | 'now' | 'reader' | 'password' | 'geolocDistance'
>
