import { describe, expect, it } from 'vitest'
import { toCost } from '../../src/serialize/cost.ts'

const SITE = { symbol: '$', position: 'prefix' as const }

// The reference's observed table of costs.
describe('cost and cost_details', () => {
  it.each([
    ['15', '$15', '', '', ['15']],
    ['RM25', 'RM25', 'RM', 'prefix', ['25']],
    ['RM 25', 'RM25', 'RM', 'prefix', ['25']],
    ['10-20', '$10 – $20', '', '', ['10', '20']],
    ['RM10 - RM20', '$10 – $20', '', '', ['10', '20']],
    [['0$', '20$', '30$'], 'Free – 30$', '$', 'postfix', ['0', '20', '30']],
    [['5', '10'], '$5 – $10', '', '', ['5', '10']],
    ['0.00', 'Free', '', '', ['0.00']],
    ['$0', 'Free', '$', 'prefix', ['0']],
    ['Free', 'Free', '', '', ['free']],
    ['Donation', 'Donation', '', '', ['donation']],
    ['1,000', '$1,000', '', '', ['1000']],
    ['15€', '15€', '€', 'postfix', ['15']],
    [undefined, '', '', '', []],
    [25, '$25', '', '', ['25']],
  ])('formats %j as %j', (input, cost, symbol, position, values) => {
    expect(toCost(input, SITE)).toEqual({
      cost,
      cost_details: { currency_symbol: symbol, currency_code: '', currency_position: position, values },
    })
  })

  it('uses the site symbol and position when the cost names none', () => {
    expect(toCost('15 - 40', { symbol: 'S$', position: 'prefix' }).cost).toBe('S$15 – S$40')
    expect(toCost('15', { symbol: '€', position: 'postfix' }).cost).toBe('15€')
  })
})
