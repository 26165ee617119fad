import { describe, expect, it } from 'vitest'
import { fieldOf, messageLines } from '../../src/content/checks/problem-lines.ts'

// Which line of a content file a problem's message is about: the key or list item it names, nested.

const FILE = [
  '---',
  'id: 5',
  'title: Talks',
  'recurrence:',
  '  rrule: FREQ=WEEKLY',
  '  exdate:',
  '    - 2027-01-12',
  '    - "2027-01-19 19:00:00"',
  'overrides:',
  '  2027-01-26:',
  '    title: In the garden',
  '  2027-02-02 19:00:00:',
  '    cost: 5',
  'tags: [1, 2]',
  '---',
  'Body with overrides: in it.',
  '',
].join('\n')

describe('the line of a message', () => {
  it.each([
    ['title: "" is empty; write at least 1 character', 3],
    ['recurrence.rrule: open-ended; occurrences are served up to 2029-01-01', 5],
    ['recurrence.exdate: 2027-01-12 excludes no occurrence', 7],
    ['recurrence.exdate: 2027-01-19 19:00:00 excludes no occurrence', 8],
    ['recurrence.exdate: 2031-01-01 excludes no occurrence', 6],
    ['overrides: 2027-01-26 changes no occurrence', 10],
    ['overrides: 2027-02-02 19:00:00: cost "5" is odd', 13],
    ['overrides."2027-01-26".title: not a field of an event', 11],
    ['overrides: 2099-01-01 changes no occurrence', 9],
    ['tags (item 2): 2 is not a tag', 14],
    ['no translation in zh-hans, ta', 1],
    ['slug "x" (en) is already used by events/y', 1],
  ])('%s → line %i', (message, line) => {
    expect(messageLines(FILE)(message)).toBe(line)
  })

  it('reads the field path the schema writes: dotted keys, quoted keys and list items', () => {
    expect(fieldOf('overrides."2027-01-26".title: not a field')).toEqual({
      path: ['overrides', '2027-01-26', 'title'],
      rest: 'not a field',
    })
    expect(fieldOf('cost (item 3): too long')).toEqual({ path: ['cost', 2], rest: 'too long' })
  })

  it('puts a problem of a very long front matter on its top-level key, without parsing it again', () => {
    const keys = Array.from(
      { length: 6000 },
      (_, i) => `  2027-01-${String((i % 28) + 1).padStart(2, '0')} ${i}:\n    title: t`,
    )
    const text = `---\nid: 5\noverrides:\n${keys.join('\n')}\n---\n`
    expect(text.length).toBeGreaterThan(64 * 1024)
    expect(messageLines(text)('overrides: 2027-01-05 4 changes no occurrence')).toBe(3)
  })
})
