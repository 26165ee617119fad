// /doc component schemas. An event's cost and date details, as objects (docs/compatibility.md §17).

/** `components.schemas.CostDetails`. */
export const COST_DETAILS_SCHEMA = {
  type: 'object',
  properties: {
    currency_symbol: {
      type: 'string',
      description: 'The cost currency symbol',
    },
    currency_code: {
      type: 'string',
      description: 'The cost currency code',
    },
    currency_position: {
      type: 'string',
      description: 'The position of the currency symbol in the cost string',
      enum: ['prefix', 'postfix'],
    },
    values: {
      type: 'array',
      items: {
        type: 'string',
      },
      description: 'A sorted array of all the values of the cost, numbers as text',
    },
  },
} as const

/** `components.schemas.DateDetails`. */
export const DATE_DETAILS_SCHEMA = {
  type: 'object',
  properties: {
    year: {
      type: 'integer',
      description: 'The date year',
    },
    month: {
      type: 'integer',
      description: 'The date month',
    },
    day: {
      type: 'integer',
      description: 'The date day',
    },
    hour: {
      type: 'integer',
      description: 'The date hour',
    },
    minutes: {
      type: 'integer',
      description: 'The date minutes',
    },
    seconds: {
      type: 'integer',
      description: 'The date seconds',
    },
  },
} as const
