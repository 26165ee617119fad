import fc from 'fast-check'
import { afterAll, describe, it } from 'vitest'
import { closeUsers, startRun, stopRun } from './harness.ts'
import { emptyModel, POST_KINDS, TERM_KINDS, type Model, type PostKind } from './model.ts'
import { reconcile, type Real } from './observe.ts'
import { CreatePost, DeletePost, UpdatePost } from './posts.ts'
import { lang, who, writeSpec } from './writes.ts'
import { modelOfTree } from './initial.ts'
import { ListPosts, ReadPost, ReadTerms, STATUS_FILTERS } from './reads.ts'
import { idsNotReusedAfterReload, sameAfterReload } from './fresh.ts'
import { CreateTerm, IfMatch, WriteTerm } from './terms.ts'

/**
 * Stateful, model-based property (issue 10): random sequences of creates, updates, deletes and
 * reads over the five kinds, by every role (two users of each, and anonymous), with inline linked
 * records, terms by name, languages and If-Match. After every step: no 5xx, each answer agrees with
 * the model, and the administrator's lists hold exactly the model's records. At the end: a store
 * loaded afresh answers every GET byte for byte the same, and `almanac check` finds no error.
 *
 * Replay a failure with FC_SEED=<seed> (and FC_PATH=<path>) from the printed report; FC_RUNS,
 * FC_COMMANDS and FC_TIME_LIMIT (ms) size a run; FC_VERBOSE=1 prints timings, =2 every request.
 * MODEL_AVOID (see model.ts) leaves out inputs that meet known defects, to look past them.
 */
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FC_RUNS ?? 30)
const MAX_COMMANDS = Number(process.env.FC_COMMANDS ?? 40)
const TIME_LIMIT_MS = Number(process.env.FC_TIME_LIMIT ?? 45_000)

/** Runs a command, then compares the administrator's view of every kind with the model. */
class Checked implements fc.AsyncCommand<Model, Real> {
  constructor(readonly inner: fc.AsyncCommand<Model, Real>) {}
  check = (model: Readonly<Model>) => this.inner.check(model)
  async run(model: Model, real: Real): Promise<void> {
    await this.inner.run(model, real)
    await reconcile(model, real)
  }
  toString = () => this.inner.toString()
}

const postKinds = fc.constantFrom<PostKind>(...POST_KINDS)
const termKinds = fc.constantFrom(...TERM_KINDS)
const method = fc.constantFrom('PUT', 'PATCH', 'POST')

const perKind = (make: (kind: PostKind) => fc.Arbitrary<fc.AsyncCommand<Model, Real>>) => POST_KINDS.map(make)

const COMMANDS: fc.Arbitrary<fc.AsyncCommand<Model, Real>>[] = [
  ...perKind((kind) => fc.tuple(writeSpec(kind, true), fc.nat()).map(([spec, n]) => new CreatePost(kind, spec, n))),
  ...perKind((kind) => fc.tuple(writeSpec(kind, true), fc.nat()).map(([spec, n]) => new CreatePost(kind, spec, n))),
  ...perKind((kind) =>
    fc
      .tuple(fc.nat(), writeSpec(kind, false), method, fc.boolean())
      .map(([n, spec, m, slug]) => new UpdatePost(kind, n, spec, m, slug)),
  ),
  fc
    .tuple(postKinds, fc.nat(), who, fc.boolean(), fc.boolean())
    .map(([kind, n, w, force, slug]) => new DeletePost(kind, n, w, force, slug)),
  fc
    .tuple(postKinds, fc.nat(), who, lang, fc.boolean())
    .map(([kind, n, w, l, slug]) => new ReadPost(kind, n, w, l, slug)),
  fc
    .tuple(postKinds, who, fc.constantFrom(...STATUS_FILTERS), lang)
    .map(([kind, w, filter, l]) => new ListPosts(kind, w, filter, l)),
  fc.tuple(termKinds, fc.nat(), who, lang).map(([kind, n, w, l]) => new CreateTerm(kind, n, w, l)),
  fc
    .tuple(termKinds, fc.nat(), who, fc.boolean(), lang)
    .map(([kind, n, w, remove, l]) => new WriteTerm(kind, n, w, remove, l)),
  fc.tuple(termKinds, fc.nat(), who, lang).map(([kind, n, w, l]) => new ReadTerms(kind, n, w, l)),
  fc.tuple(fc.constantFrom(...POST_KINDS, ...TERM_KINDS), fc.nat(), who).map(([kind, n, w]) => new IfMatch(kind, n, w)),
].map((arb) => arb.map((command) => new Checked(command)))

describe('the API against a model of who may see and change what', () => {
  afterAll(closeUsers)
  it(
    'agrees with the model after every step, and a fresh store answers every GET the same at the end',
    async () => {
      console.log(`stateful property: seed ${SEED} (FC_SEED=${SEED} to replay)`)
      await fc.assert(
        fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: MAX_COMMANDS, size: 'max' }), async (commands) => {
          const run = await startRun()
          const real: Real = { ...run, log: [] }
          try {
            const model = emptyModel()
            modelOfTree(model, run.app)
            const t0 = performance.now()
            await fc.asyncModelRun(() => ({ model, real }), commands)
            const t1 = performance.now()
            await sameAfterReload(model, real)
            await idsNotReusedAfterReload(model, real)
            if (process.env.FC_VERBOSE)
              console.log(
                `steps ${Math.round(t1 - t0)} ms, reload ${Math.round(performance.now() - t1)} ms, ${real.log.length} requests`,
              )
            if (process.env.FC_VERBOSE === '2')
              console.log(real.log.filter((line) => !line.includes('status=publish,future')).join('\n'))
          } finally {
            await stopRun(run)
          }
        }),
        // Bounded: past the time limit no new run starts, and shrinking stops with the smallest failure found so far.
        {
          numRuns: RUNS,
          seed: SEED,
          ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
          interruptAfterTimeLimit: TIME_LIMIT_MS,
        },
      )
    },
    TIME_LIMIT_MS + 30_000,
  )
})
