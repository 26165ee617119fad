import type { RequestContext } from '../context/request.ts'

/** The API namespace, kept in `src/namespace.ts` so that the argument tables below serialize can name it. */
export { NAMESPACE } from '../namespace.ts'
export type { Site } from '../context/site.ts'
export { mayRead, type Reader } from '../context/request.ts'

/** What the serializers read of a request: the records, the site, the language, the clock, the reader and the caches. */
export type View = Pick<
  RequestContext,
  'store' | 'site' | 'lang' | 'prefix' | 'langNamed' | 'now' | 'password' | 'reader' | 'caches' | 'indexes'
>
