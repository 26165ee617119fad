/** The API namespace Almanac serves (the reference's `tribe/events/v1`). */
export const NAMESPACE = 'calendar/events/v1'
