import type { ArgSet, ArgSpec } from '../args/types.ts'
import { COMPONENT_SCHEMAS } from './openapi/components.ts'
import { NAMESPACE } from '../namespace.ts'
import { link } from '../serialize/urls.ts'
import type { RouteDef } from '../http/route.ts'

const SCHEMA_OF: Record<string, string> = {
  events: 'Event',
  venues: 'Venue',
  organizers: 'Organizer',
  categories: 'Term',
  tags: 'Term',
}

/**
 * GET /doc: an OpenAPI 3.0 document generated from the same route and argument tables that validate requests
 * (docs/compatibility.md §17).
 */
export function docRoute(routes: () => RouteDef[]): RouteDef {
  return {
    path: '/doc',
    pattern: '/doc',
    endpoints: [
      {
        methods: ['GET'],
        args: {},
        handler: (ctx) => {
          const { site } = ctx
          return { body: openApi(routes(), link(site, `${site.url}${site.apiRoot}/${NAMESPACE}/`)) }
        },
      },
    ],
  }
}

/** The document: the reference's top-level keys in its order, with a server URL that works (port included). */
export function openApi(routes: RouteDef[], server: string) {
  const paths: Record<string, unknown> = {
    '/doc': {
      get: {
        responses: {
          '200': {
            description: 'Returns the documentation for the Almanac calendar events REST API in OpenAPI format.',
          },
        },
      },
    },
  }
  for (const route of routes) {
    if (route.pattern === '' || route.pattern === '/doc' || route.pattern === '/diagnostics') continue
    const path = route.pattern.replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}').replaceAll('\\.', '.')
    paths[path] = route.pattern.endsWith('\\.ics') ? describeFeed(route) : describePath(route)
  }
  return {
    openapi: '3.0.0',
    info: {
      version: '1.0.0',
      title: 'Almanac calendar events REST API',
      description:
        'The Events Calendar REST API (tribe/events/v1) as served by Almanac, in four languages (ml_language).',
    },
    components: { schemas: COMPONENT_SCHEMAS },
    servers: [{ url: server }],
    paths,
  }
}

/** A feed's path (docs/feeds.md): its query arguments, and iCalendar text. */
function describeFeed(route: RouteDef) {
  const endpoint = route.endpoints[0]!
  const single = route.pattern.includes('(')
  return {
    get: {
      parameters: parameters(endpoint.args, single),
      responses: {
        '200': {
          description: 'An iCalendar feed (RFC 5545) of the events an anonymous caller may read',
          content: { 'text/calendar': { schema: { type: 'string' } } },
        },
        '400': { description: 'A parameter is invalid.' },
        '403': { description: 'The record is not accessible.' },
        '404': { description: 'No such record.' },
      },
    },
  }
}

function describePath(route: RouteDef) {
  const kind = route.pattern.split('/')[1]!
  const single = route.pattern.includes('(')
  const schema = { $ref: `#/components/schemas/${SCHEMA_OF[kind] ?? 'Event'}` }
  const json = (description: string, list = false) => ({
    description,
    content: { 'application/json': { schema: list ? { title: kind, type: 'array', items: schema } : schema } },
  })
  const operations: Record<string, unknown> = {}
  for (const endpoint of route.endpoints) {
    const method = endpoint.methods[0]!.toLowerCase()
    if (method === 'get') {
      operations.get = {
        parameters: parameters(endpoint.args, single),
        responses: single
          ? {
              '200': json(`Returns the ${kind} record`),
              '400': { description: 'The id or slug names no record of this kind.' },
              '403': { description: 'The record is not accessible to the caller.' },
              '404': { description: 'No such record.' },
            }
          : {
              '200': json(`Returns the ${kind} matching the query`, true),
              '400': { description: 'A parameter is invalid.' },
              '404': { description: 'The page does not exist.' },
            },
      }
    } else if (method === 'post' && single) {
      // As upstream, creation is documented with the single path's post, next to the update.
      const pathArgs = Object.fromEntries(Object.entries(endpoint.args).filter(([name]) => isPathArg(name, single)))
      operations.post = {
        parameters: parameters(pathArgs, single),
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', properties: bodyProperties(endpoint.args, single) },
            },
          },
        },
        responses: {
          '200': json(`Returns the updated ${kind} record`),
          '201': json(`Returns the created ${kind} record`),
          '400': { description: 'A required parameter is missing or an input parameter is invalid.' },
          '401': { description: 'The request has no valid credentials.' },
          '403': { description: 'The caller may not make this change.' },
        },
      }
    } else if (method === 'delete') {
      operations.delete = {
        parameters: parameters(endpoint.args, single),
        responses: {
          '200': json(`Returns the deleted or trashed ${kind} record`),
          '401': { description: 'The request has no valid credentials.' },
          '403': { description: 'The caller may not delete this record.' },
          '410': { description: 'The record is already trashed.' },
        },
      }
    }
  }
  // The reference's order of operations: get, post, delete.
  return Object.fromEntries(['get', 'post', 'delete'].filter((m) => m in operations).map((m) => [m, operations[m]]))
}

function isPathArg(name: string, single: boolean): boolean {
  return single && (name === 'id' || name === 'slug')
}

/** Each argument as an OpenAPI parameter, in the reference's form: `{in, schema, description, required, name}`. */
function parameters(args: ArgSet, single: boolean) {
  return Object.entries(args).map(([name, spec]) => {
    const parameter: Record<string, unknown> = {
      in: isPathArg(name, single) ? 'path' : 'query',
      schema: schemaOf(spec),
      description: spec.description ?? 'No description provided',
      required: spec.required,
      name,
    }
    if (spec.items) Object.assign(parameter, { style: 'form', explode: false })
    return parameter
  })
}

function bodyProperties(args: ArgSet, single: boolean) {
  const properties: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(args)) {
    if (!isPathArg(name, single))
      properties[name] = { description: spec.description ?? 'No description provided', ...schemaOf(spec) }
  }
  return properties
}

function schemaOf(spec: ArgSpec): Record<string, unknown> {
  if (spec.items) return { type: 'array', items: spec.items }
  return spec.enum ? { type: spec.type ?? 'string', enum: spec.enum } : { type: spec.type ?? 'string' }
}
