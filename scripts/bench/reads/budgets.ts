/** Issue 2's and the list filters' budgets: reported next to the numbers, never asserted. */
export const READ_BUDGETS = {
  readyMs: 2000,
  rssMb: 400,
  ratio: 0.7,
  queryP50Ms: 1,
  mixRatio: 0.4,
} as const
