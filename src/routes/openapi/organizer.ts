// /doc component schemas. An organizer.

/** `components.schemas.Organizer`. */
export const ORGANIZER_SCHEMA = {
  type: 'object',
  properties: {
    id: {
      type: 'integer',
      description: 'The organizer WordPress post ID',
    },
    global_id: {
      type: 'string',
      description: 'The organizer ID used to globally identify in Event Aggregator',
    },
    global_id_lineage: {
      type: 'array',
      items: {
        type: 'string',
      },
      description:
        'An Array containing the lineage of where this organizer comes from, this should not change after the organizer is created.',
    },
    author: {
      type: 'integer',
      description: 'The organizer author WordPress post ID',
    },
    date: {
      type: 'string',
      description: 'The organizer creation date in the site time zone',
    },
    date_utc: {
      type: 'string',
      description: 'The organizer creation date in UTC time',
    },
    modified: {
      type: 'string',
      description: 'The organizer last modification date in the site time zone',
    },
    modified_utc: {
      type: 'string',
      description: 'The organizer last modification date in UTC time',
    },
    status: {
      type: 'string',
      description: 'The organizer status',
    },
    url: {
      type: 'string',
      description: 'The URL to the organizer page',
    },
    organizer: {
      type: 'string',
      description: 'The organizer name',
    },
    description: {
      type: 'string',
      description: 'The organizer long description',
    },
    excerpt: {
      type: 'string',
      description: 'The organizer short description',
    },
    slug: {
      type: 'string',
      description: 'The organizer slug',
    },
    image: {
      type: 'object',
      description: 'The event featured image details if set',
      $ref: '#/components/schemas/Image',
    },
    phone: {
      type: 'string',
      description: 'The organizer phone number',
    },
    website: {
      type: 'string',
      description: 'The organizer website',
    },
    email: {
      type: 'string',
      description: 'The organizer email address',
    },
  },
} as const
