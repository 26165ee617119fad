import type { RequestContext } from '../context/request.ts'

/**
 * What the serializers read of a request: the records, the site, the language, the clock, the reader and the
 * caches.
 */
export type View = Pick<
  RequestContext,
  'store' | 'site' | 'lang' | 'prefix' | 'langNamed' | 'now' | 'password' | 'reader' | 'caches' | 'indexes'
>
