import { describe, expect, it } from 'vitest'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { stringifyFrontMatter, updateFrontMatter } from '../../src/content/files/front-matter-write.ts'
import { normalize } from '../../src/content/files/normalize.ts'
import { KEY_ORDER } from '../../src/content/model/kinds.ts'

// A series' `recurrence` and `overrides` are mappings: written in block style, as an editor writes them
// (docs/series-writes.md), and read back as the same data.

const DATA = {
  id: 30,
  title: 'Yoga',
  start_date: '2026-09-01 09:00:00',
  end_date: '2026-09-01 10:00:00',
  overrides: { '2026-12-22 09:00:00': { title: 'Late: "yoga"', cost: '3', venue: [11] } },
  recurrence: { rrule: 'FREQ=WEEKLY', exdate: ['2026-12-29'] },
}

describe('mappings in front matter', () => {
  it('are written in block style, recurrence then overrides last, and read back as written', () => {
    const text = stringifyFrontMatter(DATA, 'Body', KEY_ORDER.events)
    expect(text).toBe(
      [
        '---',
        'id: 30',
        'title: Yoga',
        'start_date: 2026-09-01 09:00:00',
        'end_date: 2026-09-01 10:00:00',
        'recurrence:',
        '  rrule: FREQ=WEEKLY',
        '  exdate: ["2026-12-29"]',
        'overrides:',
        '  "2026-12-22 09:00:00":',
        '    title: "Late: \\"yoga\\""',
        '    cost: "3"',
        '    venue: [11]',
        '---',
        'Body',
        '',
      ].join('\n'),
    )
    expect(parseFrontMatter(text).data).toEqual(DATA)
  })

  it('keep the line ends of a CRLF file and every line the write did not change', () => {
    const previous =
      '---\r\nid: 30 # mine\r\ntitle: Yoga\r\nstart_date: 2026-09-01 09:00:00\r\nend_date: 2026-09-01 10:00:00\r\n---\r\nBody\r\n'
    const text = updateFrontMatter(previous, DATA, 'Body', KEY_ORDER.events, normalize)
    expect(text.startsWith('---\r\nid: 30 # mine\r\n')).toBe(true)
    expect(text).toContain('\r\noverrides:\r\n  "2026-12-22 09:00:00":\r\n    title: "Late: \\"yoga\\""\r\n')
    expect(text.replace(/\r\n/g, '').includes('\n')).toBe(false)
    expect(parseFrontMatter(text).data).toEqual(DATA)
  })

  // The block of a CRLF file ends with its last line's CR; yaml refused it after a quoted value, so such a
  // file (a series' mapping makes it go the parsed way) was written afresh: LF line ends, comments gone.
  it('keep the lines of a CRLF series file whose front matter ends with a quoted value', () => {
    const previous =
      '---\r\nid: 30 # mine\r\nrecurrence:\r\n  rrule: FREQ=WEEKLY\r\n  exdate: ["2026-12-29"]\r\ntitle: "Yoga"\r\n---\r\nBody\r\n'
    const data = { ...DATA, title: 'Yoga', overrides: undefined, start_date: undefined, end_date: undefined }
    const text = updateFrontMatter(previous, { ...data, title: 'Pilates' }, 'Body', KEY_ORDER.events, normalize)
    expect(text).toBe(previous.replace('title: "Yoga"', 'title: Pilates'))
  })
})
