import { setFlagsFromString } from 'node:v8'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureApp } from '../helpers.ts'

// Request contexts, and the views made from them for anonymous feeds and lists, keep one shape (V8's hidden class)
// whatever the request: V8 11 (Node 20) gives most objects made by a spread and then given a key their source lacked
// a shape of their own, and the code that reads such objects, one per request, fell to slow lookups. So a context
// always has a `password` key (undefined when none was given), and views only set keys it has (src/http/context.ts).
setFlagsFromString('--allow-natives-syntax')
const sameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean
// Off again once this file is done, for whatever else this process compiles.
afterAll(() => setFlagsFromString('--no-allow-natives-syntax'))
/** How many times the shape changes along a list of objects. */
const shapes = (objects: object[]) => objects.filter((o, i) => i === 0 || !sameShape(o, objects[i - 1]!)).length

describe('request contexts, in V8', () => {
  it('have one shape with or without a password, and so do the anonymous views made from them', async () => {
    const app = await fixtureApp('feeds')
    const contexts = Array.from({ length: 40 }, (_, i) =>
      i % 2 ? app.context({}) : app.context({ lang: 'ms', password: `open ${i}`, langNamed: true }),
    )
    expect(shapes(contexts)).toBe(1)
    // A field's kind may widen once (a password string after none), moving later views to a newer shape: a few
    // shapes, never one a request.
    expect(shapes(contexts.map((ctx) => ({ ...ctx, reader: 'none', password: undefined })))).toBeLessThanOrEqual(3)
    // What the rule guards against, on the V8 it was found on: a key the source lacks gives most of them a shape of
    // their own. (A later V8 may share them; the checks above hold either way.)
    if (process.versions.v8.startsWith('11.'))
      expect(shapes(contexts.map((ctx) => ({ ...ctx, unheard: 1 })))).toBeGreaterThan(10)
  })
})
