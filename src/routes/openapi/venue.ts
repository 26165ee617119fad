// /doc component schemas. A venue.

/** `components.schemas.Venue`. */
export const VENUE_SCHEMA = {
  type: 'object',
  properties: {
    id: {
      type: 'integer',
      description: 'The venue WordPress post ID',
    },
    global_id: {
      type: 'string',
      description: 'The venue ID used to globally identify in Event Aggregator',
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
      description: 'The venue author WordPress post ID',
    },
    date: {
      type: 'string',
      description: 'The venue creation date in the site time zone',
    },
    date_utc: {
      type: 'string',
      description: 'The venue creation date in UTC time',
    },
    modified: {
      type: 'string',
      description: 'The venue last modification date in the site time zone',
    },
    modified_utc: {
      type: 'string',
      description: 'The venue last modification date in UTC time',
    },
    status: {
      type: 'string',
      description: 'The venue status',
    },
    url: {
      type: 'string',
      description: 'The URL to the venue page',
    },
    venue: {
      type: 'string',
      description: 'The venue name',
    },
    description: {
      type: 'string',
      description: 'The venue long description',
    },
    excerpt: {
      type: 'string',
      description: 'The venue short description',
    },
    slug: {
      type: 'string',
      description: 'The venue slug',
    },
    image: {
      type: 'object',
      description: 'The event featured image details if set',
      $ref: '#/components/schemas/Image',
    },
    show_map: {
      type: 'boolean',
      description: 'Whether the map should be shown for the venue or not',
    },
    show_map_link: {
      type: 'boolean',
      description: 'Whether the map link should be shown for the venue or not',
    },
    address: {
      type: 'string',
      description: 'The venue address',
    },
    city: {
      type: 'string',
      description: 'The venue city',
    },
    country: {
      type: 'string',
      description: 'The venue country',
    },
    province: {
      type: 'string',
      description: 'The venue province',
    },
    state: {
      type: 'string',
      description: 'The venue state',
    },
    zip: {
      type: 'string',
      description: 'The venue ZIP code',
    },
    phone: {
      type: 'string',
      description: 'The venue phone number',
    },
    website: {
      type: 'string',
      description: 'The venue website URL',
    },
    stateprovince: {
      type: 'string',
      description: 'The venue state or province',
    },
    geo_lat: {
      type: 'number',
      format: 'double',
      description: 'The venue geo latitude',
    },
    geo_lng: {
      type: 'number',
      format: 'double',
      description: 'The venue geo longitude',
    },
  },
} as const
