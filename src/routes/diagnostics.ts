import { canEditOthers } from '../auth/roles.ts'
import type { RouteDef } from '../http/route.ts'

/**
 * GET /diagnostics: the content files the server cannot use as they are, with the reason and the
 * line, until they are fixed; warnings (a key the store does not read) have `severity: "warning"`.
 * For editors and administrators: paths and reasons are not public.
 */
export const DIAGNOSTICS_ROUTE: RouteDef = {
  path: '/diagnostics',
  pattern: '/diagnostics',
  endpoints: [
    {
      methods: ['GET'],
      args: {},
      capability: canEditOthers,
      handler: (ctx) => {
        const problems = ctx.store.problems().map(({ path, line, message, severity }) => ({
          path: `content/${path}`,
          line: line ?? 1,
          severity: severity ?? 'error',
          message,
        }))
        return { body: { problems, total: problems.length } }
      },
    },
  ],
}
