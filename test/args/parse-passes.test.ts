import { describe, expect, it } from 'vitest'
import { parseParams } from '../../src/args/parse.ts'
import type { ArgSet } from '../../src/args/types.ts'
import type { ParamContext } from '../../src/args/validators.ts'

// The pipeline's passes read only the arguments that have a value (sent, or a default), in the arguments' order:
// what they find, what they refuse and in which order they name it must be what a pass over every argument gives.

const ctx = {} as ParamContext

/** A table with every kind of step, its defaults counted as they are asked for. */
function table(asked: string[]): ArgSet {
  const ask =
    <T>(name: string, value: T) =>
    () => {
      asked.push(name)
      return value
    }
  return {
    first: { required: true },
    nothing: { required: true, default: ask('nothing', null) },
    plain: { required: false, default: 'x' },
    computed: { required: false, default: ask('computed', 'made') },
    checked: { required: false, validate: (value) => value === 'ok' },
    count: { required: false, type: 'integer' },
    parsed: { required: false, parse: (value) => (value === 'p' ? 'P' : undefined) },
    trimmed: { required: false, type: 'string', sanitize: (value) => String(value).trim() },
    listed: { required: false, enum: ['a', 'b'] },
    both: { required: false, validate: (value) => value !== 'no', type: 'integer' },
    // A default is checked and converted as a sent value is.
    converted: { required: false, type: 'integer', default: '7' },
  }
}

function refusal(run: () => unknown): { code: string; message: string; extra: Record<string, unknown> } {
  try {
    run()
  } catch (error) {
    const { code, message, extra } = error as { code: string; message: string; extra: Record<string, unknown> }
    return { code, message, extra }
  }
  throw new Error('no refusal')
}

describe('the argument pipeline over the arguments that have a value', () => {
  it('names every required argument without a value, in the arguments order, once every default was asked', () => {
    const asked: string[] = []
    const refused = refusal(() => parseParams(table(asked), { checked: 'no' }, ctx))
    expect(refused.code).toBe('rest_missing_callback_param')
    expect(refused.extra).toEqual({ params: ['first', 'nothing'] })
    expect(asked).toEqual(['nothing', 'computed'])
  })

  it('names the refused arguments in the arguments order, whatever order the request sent them in', () => {
    const input = { listed: 'c', both: 'many', count: 'many', checked: 'no', parsed: 'q', nothing: 'n', first: 'f' }
    const refused = refusal(() => parseParams(table([]), input, ctx))
    expect(refused.code).toBe('rest_invalid_param')
    expect(refused.message).toBe('Invalid parameter(s): checked, count, parsed, listed')
    // The type of an argument with a validate callback is checked once every callback passed, in a second round.
    const typed = refusal(() => parseParams(table([]), { both: 'many', listed: 'b', nothing: 'n', first: 'f' }, ctx))
    expect(typed.message).toBe('Invalid parameter(s): both')
  })

  it('gives the sent values checked and converted, the defaults, and nothing for an argument without either', () => {
    const asked: string[] = []
    const input = { trimmed: '  t ', parsed: 'p', count: '5', first: 'f', nothing: 'n', checked: 'ok', other: 'x' }
    const { values, given } = parseParams(table(asked), input, ctx)
    expect(values).toEqual({
      first: 'f',
      nothing: 'n',
      plain: 'x',
      computed: 'made',
      checked: 'ok',
      count: 5,
      parsed: 'P',
      trimmed: 't',
      converted: 7,
    })
    expect(Object.keys(values)).toEqual([
      'first',
      'nothing',
      'plain',
      'computed',
      'checked',
      'count',
      'parsed',
      'trimmed',
      'converted',
    ])
    expect('listed' in values).toBe(false)
    expect([...given]).toEqual(['first', 'nothing', 'checked', 'count', 'parsed', 'trimmed'])
    expect(asked).toEqual(['computed'])
  })

  it('checks a default as a sent value, and names it among the sent ones in the arguments order', () => {
    const args: ArgSet = {
      sentFirst: { required: false, validate: (value) => value === 'ok' },
      fallback: { required: false, default: () => 'bad', validate: (value) => value !== 'bad' },
      sentLast: { required: false, validate: (value) => value === 'ok' },
    }
    const refused = refusal(() => parseParams(args, { sentLast: 'no', sentFirst: 'no' }, ctx))
    expect(refused.message).toBe('Invalid parameter(s): sentFirst, fallback, sentLast')
    expect(refusal(() => parseParams(args, { sentLast: 'ok', sentFirst: 'ok' }, ctx)).message).toBe(
      'Invalid parameter(s): fallback',
    )
  })

  it('takes a sent null as not sent, and its default in its place', () => {
    const { values, given } = parseParams(table([]), { first: 'f', nothing: 'n', plain: null, listed: 'a' }, ctx)
    expect(values.plain).toBe('x')
    expect(values.listed).toBe('a')
    expect(given.has('plain')).toBe(false)
  })
})
