import type { ArgSet } from './types.ts'
import { pagingArgs } from './paging.ts'
import {
  isEventId,
  isOrganizerId,
  isOrganizerSlug,
  isStatusList,
  isString,
  isVenueId,
  isVenueSlug,
} from './validators.ts'

// The read arguments of venues and organizers: the list, one by id, one by slug.

/** The list arguments of venues and organizers: the same table, with the record's own noun. */
function linkedListArgs(plural: 'Venues' | 'Organizers', singular: string): ArgSet {
  return {
    ...pagingArgs(plural.toLowerCase()),
    search: {
      description: `${plural} should contain the specified string in the title, description or custom fields`,
      type: 'string',
      required: false,
      validate: isString,
    },
    event: {
      description: `${plural} should be related to this event`,
      type: 'integer',
      required: false,
      validate: isEventId,
    },
    has_events: { description: `${plural} should have events associated to them`, required: false },
    only_with_upcoming: {
      description: `${plural} should have upcoming events associated to them`,
      default: false,
      required: false,
    },
    status: { format: 'string', description: `The ${singular} post status`, required: false, validate: isStatusList },
  }
}

export const VENUE_LIST_ARGS: ArgSet = linkedListArgs('Venues', 'venue')

export const VENUE_READ_ARGS: ArgSet = {
  id: { type: 'integer', description: 'the venue post ID', required: true, validate: isVenueId },
}

export const VENUE_SLUG_READ_ARGS: ArgSet = {
  slug: { type: 'string', description: 'the venue post name', required: true, validate: isVenueSlug },
}

export const ORGANIZER_LIST_ARGS: ArgSet = linkedListArgs('Organizers', 'organizer')

export const ORGANIZER_READ_ARGS: ArgSet = {
  id: { type: 'integer', description: 'the organizer post ID', required: true, validate: isOrganizerId },
}

export const ORGANIZER_SLUG_READ_ARGS: ArgSet = {
  slug: { type: 'string', description: 'the organizer post name', required: true, validate: isOrganizerSlug },
}
