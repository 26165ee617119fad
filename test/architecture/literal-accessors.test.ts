import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { sourceFiles } from './imports.ts'

// An accessor (`get x() {…}`, `set x(v) {…}`) written in an object literal is made anew each time the literal is
// evaluated, and V8 11 (Node 20) keeps what it makes for it in the old generation: everything the accessor's closure
// can reach then survives every young collection until the next full one. Made for every event list (`all` of
// `listEvents`, as it was), that was a whole request's objects: ~800 KB promoted at every scavenge of the varied mix,
// a full collection every two seconds, and a seventh of the server's CPU in the collector's threads
// (docs/architecture.md §3, "Accessors made per request"). So accessors in literals are kept to objects made once per app, store
// or cache; anything made per request or per record uses a method or a plain field. Class accessors live on the
// prototype, made once, and are not counted here.

const SRC = resolve(import.meta.dirname, '../../src')

/** Where an accessor in a literal is allowed: the file and the function that makes the object, and why it is rare. */
const ALLOWED: Record<string, string> = {
  'http/answer-cache.ts createAnswerCache': 'one answer cache per app',
  'content/store.ts storeOver': 'one store per tree',
  'content/store/git-dates.ts createCommitDates': 'one per disk driver',
  'content/store/change-notification.ts createChangeNotification': 'one per store',
  'query/search.ts createSearchIndex': 'one search index per language an app searches',
  'query/indexes.ts createIndexes': 'one set of indexes per app',
  'serialize/memo.ts createJsonCache': 'one JSON memo per app',
  'serialize/feed/kept-feeds.ts createKeptFeeds': 'one feed cache per app',
}

/**
 * Every accessor written in an object literal under src/ (TypeScript and the JavaScript worker shims), as `file
 * function`, with the accessor's name.
 */
function literalAccessors(): { where: string; name: string }[] {
  return sourceFiles(SRC).flatMap((file) => {
    const kind = file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, kind)
    const found: { where: string; name: string }[] = []
    const visit = (node: ts.Node): void => {
      if (
        (ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) &&
        ts.isObjectLiteralExpression(node.parent)
      )
        found.push({ where: `${relative(SRC, file)} ${enclosingFunction(node)}`, name: node.name.getText(source) })
      ts.forEachChild(node, visit)
    }
    visit(source)
    return found
  })
}

/**
 * The function around a node: the nearest function of any kind, by name. An arrow or a function expression is
 * named only when it is a variable's value, else it is `(anonymous, line N)`: one inside an allowed factory (a
 * callback of `map`, say) may run once per record, so it is never excused by its factory's name.
 */
function enclosingFunction(node: ts.Node): string {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (!ts.isFunctionLike(at) || ts.isAccessor(at)) continue
    const named = ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at) ? at.name : undefined
    const variable = ts.isVariableDeclaration(at.parent) && at.parent.initializer === at ? at.parent.name : undefined
    const name = (named ?? variable)?.getText()
    if (name !== undefined) return name
    return `(anonymous, line ${at.getSourceFile().getLineAndCharacterOfPosition(at.getStart()).line + 1})`
  }
  return '(top)'
}

/** Accessors defined on an object at run time, which the scan of literals cannot see. */
const DEFINED_ACCESSOR = /\b(defineProperty|defineProperties|__defineGetter__|__defineSetter__)\b/

describe('accessors in object literals', () => {
  const found = literalAccessors()

  it('are found (the scan sees the ones that are allowed)', () => {
    expect(found.map((accessor) => accessor.where)).toEqual(
      expect.arrayContaining(['serialize/memo.ts createJsonCache']),
    )
  })

  it('are written only in functions that make one object per app, store or cache', () => {
    const elsewhere = found.filter((accessor) => ALLOWED[accessor.where] === undefined)
    expect(elsewhere.map((accessor) => `${accessor.where}: ${accessor.name}`)).toEqual([])
  })

  it('are not defined on objects at run time either', () => {
    const defining = sourceFiles(SRC).filter((file) => DEFINED_ACCESSOR.test(readFileSync(file, 'utf8')))
    expect(defining.map((file) => relative(SRC, file))).toEqual([])
  })

  it('allows no function that no longer has one', () => {
    const stale = Object.keys(ALLOWED).filter((where) => !found.some((accessor) => accessor.where === where))
    expect(stale).toEqual([])
  })
})
