/** The read goals: reported with ✓/✗ next to the numbers, never asserted. */
export const READ_GOALS = {
  /** Almanac's req/s over its limit's, for every repeated URL. */
  ratio: 0.6,
  mixRatio: 0.25,
  coldQueryP50Ms: 0.2,
  coldSearchP50Ms: 1,
  start10kMs: 1200,
  start40kMs: 4000,
  rssMb: 300,
} as const
