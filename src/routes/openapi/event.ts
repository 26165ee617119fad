import { ATTENDANCE_MODES, EVENT_STATUSES } from '../../content/model/event-status.ts'

// /doc component schemas. An event.

/** `components.schemas.Event`. */
export const EVENT_SCHEMA = {
  type: 'object',
  properties: {
    id: {
      type: 'integer',
      description: 'The event WordPress post ID',
    },
    global_id: {
      type: 'string',
      description: 'The event ID used to globally identify in Event Aggregator',
    },
    global_id_lineage: {
      type: 'array',
      items: {
        type: 'string',
      },
      description:
        'An Array containing the lineage of where this event comes from, this should not change after the event is created.',
    },
    author: {
      type: 'integer',
      description: 'The event author WordPress post ID',
    },
    date: {
      type: 'string',
      description: 'The event creation date in the site time zone',
    },
    date_utc: {
      type: 'string',
      description: 'The event creation date in UTC time',
    },
    modified: {
      type: 'string',
      description: 'The event last modification date in the site time zone',
    },
    modified_utc: {
      type: 'string',
      description: 'The event last modification date in UTC time',
    },
    status: {
      type: 'string',
      description: 'The event status',
    },
    url: {
      type: 'string',
      description: 'The URL to the event page',
    },
    rest_url: {
      type: 'string',
      description: 'The TEC REST API link to fetch this event',
    },
    title: {
      type: 'string',
      description: 'The event name',
    },
    description: {
      type: 'string',
      description: 'The event long description',
    },
    excerpt: {
      type: 'string',
      description: 'The event short description',
    },
    slug: {
      type: 'string',
      description: 'The event slug',
    },
    image: {
      type: 'object',
      description: 'The event featured image details if set',
      $ref: '#/components/schemas/Image',
    },
    all_day: {
      type: 'boolean',
      description: 'Whether or not this event is an all day Event',
    },
    start_date: {
      type: 'string',
      description: 'The event start date in the event or site time zone',
    },
    start_date_details: {
      type: 'object',
      description: 'An array of each component of the event start date',
      $ref: '#/components/schemas/DateDetails',
    },
    end_date: {
      type: 'string',
      description: 'The event end date in the event or site time zone',
    },
    end_date_details: {
      type: 'object',
      description: 'An array of each component of the event end date',
      $ref: '#/components/schemas/DateDetails',
    },
    utc_start_date: {
      type: 'string',
      description: 'The event start date in UTC time',
    },
    utc_start_date_details: {
      type: 'object',
      description: 'An array of each component of the event start date in UTC time',
      $ref: '#/components/schemas/DateDetails',
    },
    utc_end_date: {
      type: 'string',
      description: 'The event end date in UTC time',
    },
    utc_end_date_details: {
      type: 'object',
      description: 'An array of each component of the event end date in UTC time',
      $ref: '#/components/schemas/DateDetails',
    },
    timezone: {
      type: 'string',
      description: 'The event time zone string',
    },
    timezone_abbr: {
      type: 'string',
      description: 'The abbreviated event time zone string',
    },
    cost: {
      type: 'string',
      description: 'The event cost including the currency symbol',
    },
    cost_details: {
      type: 'object',
      description: 'The event cost details',
      $ref: '#/components/schemas/CostDetails',
    },
    website: {
      type: 'string',
      description: 'The event website URL',
    },
    show_map: {
      type: 'boolean',
      description: 'Whether the map should be shown for the event or not',
    },
    show_map_link: {
      type: 'boolean',
      description: 'Whether the map link should be shown for the event or not',
    },
    hide_from_listings: {
      type: 'boolean',
      description: 'Whether an event should be hidden from the calendar view or not',
    },
    sticky: {
      type: 'boolean',
      description: 'Whether an event is sticky in the calendar view or not',
    },
    featured: {
      type: 'boolean',
      description: 'Whether the event is featured in the calendar or not',
    },
    categories: {
      type: 'array',
      description: 'The event categories',
      items: {
        $ref: '#/components/schemas/Term',
      },
    },
    tags: {
      type: 'array',
      description: 'The event tags',
      items: {
        $ref: '#/components/schemas/Term',
      },
    },
    venue: {
      type: 'object',
      description: 'The event venue',
      $ref: '#/components/schemas/Venue',
    },
    organizer: {
      type: 'array',
      description: 'The event organizers',
      items: {
        $ref: '#/components/schemas/Organizer',
      },
    },
    // Almanac's own, after the reference's `custom_fields` (docs/compatibility.md §32).
    event_status: {
      type: 'string',
      description: 'Almanac: the event status (schema.org eventStatus)',
      enum: EVENT_STATUSES,
    },
    event_status_reason: {
      type: 'string',
      description: 'Almanac: why the event is cancelled, postponed, rescheduled or moved online; "" when none',
    },
    previous_start_date: {
      type: 'string',
      description: 'Almanac: where a rescheduled event used to start, in the event time zone; "" when none',
    },
    attendance_mode: {
      type: 'string',
      description:
        'Almanac: how people attend (schema.org eventAttendanceMode); online for an event moved online that names none',
      enum: ATTENDANCE_MODES,
    },
    online_url: {
      type: 'string',
      description: 'Almanac: the http(s) address where people attend an online or mixed event; "" when none',
    },
  },
} as const
