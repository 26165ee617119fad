import { describe, expect, it } from 'vitest'
import { plainText } from '../../src/serialize/feed/plain-text.ts'

// Review of issue 15: DESCRIPTION is the Markdown's plain text (docs/feeds.md §3). A table is ordinary
// Markdown (markdown-it's GFM tables): its cells must stay apart, and it must end before what follows.

describe('the plain text of a description with a table', () => {
  it('keeps the cells of a row apart, the rows on lines of their own, and the next paragraph after a break', () => {
    const text = plainText(
      'Prices:\n\n| Ticket | Price |\n|---|---|\n| Adult | 10 |\n| Child | 5 |\n\nDoors open at seven.',
    )
    expect(text).not.toMatch(/TicketPrice|Adult10|AdultChild|5Doors/)
    expect(text).toMatch(/Adult\D+10/)
    expect(text).toMatch(/\nDoors open at seven\.$/)
  })
})
