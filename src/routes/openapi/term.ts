// /doc component schemas. A category or tag.

/** `components.schemas.Term`. */
export const TERM_SCHEMA = {
  type: 'object',
  properties: {
    id: {
      type: 'integer',
      description: 'The WordPress term ID',
    },
    name: {
      type: 'string',
      description: 'The term name',
    },
    slug: {
      type: 'string',
      description: 'The term slug',
    },
    taxonomy: {
      type: 'string',
      description: 'The taxonomy the term belongs to',
    },
    description: {
      type: 'string',
      description: 'The term description',
    },
    parent: {
      type: 'integer',
      description: 'The term parent term if any',
    },
    count: {
      type: 'integer',
      description: 'The number of posts associated with the term',
    },
    url: {
      type: 'string',
      description: 'The URL to the term archive page',
    },
    urls: {
      type: 'object',
      additionalProperties: {
        type: 'string',
      },
      description: 'A list of links to the term own, archive and parent REST URL',
    },
  },
} as const
