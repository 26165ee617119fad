import { describe, expect, it } from 'vitest'
import { parseFrontMatter } from '../../src/content/files/front-matter.ts'
import { stringifyFrontMatter } from '../../src/content/files/front-matter-write.ts'
import { KEY_ORDER } from '../../src/content/model/kinds.ts'

const roundTrip = (data: Record<string, unknown>, body = '') =>
  parseFrontMatter(stringifyFrontMatter(data, body, KEY_ORDER.events))

describe('record files written by the server', () => {
  it('keep wall-clock dates plain and read them back as the same strings', () => {
    const text = stringifyFrontMatter({ id: 1, title: 'Jazz', start_date: '2027-07-14 19:00:00' }, '', KEY_ORDER.events)
    expect(text).toBe('---\nid: 1\ntitle: Jazz\nstart_date: 2027-07-14 19:00:00\n---\n')
    expect(parseFrontMatter(text).data.start_date).toBe('2027-07-14 19:00:00')
  })

  it('put known keys in order, keep unknown keys after them, and end with one newline', () => {
    const text = stringifyFrontMatter(
      { custom: 'x', featured: true, title: 'T', id: 2 },
      'Body text.\n\n\n',
      KEY_ORDER.events,
    )
    expect(text).toBe('---\nid: 2\ntitle: T\nfeatured: true\ncustom: x\n---\nBody text.\n')
  })

  it.each([
    ['a title with --- in it'],
    ['---'],
    ['key: value'],
    ['# not a comment'],
    ['12:30'],
    ['1_000'],
    ['0x1F'],
    ['true'],
    ['null'],
    ['~'],
    ['yes'],
    ['039802'],
    ['1e3'],
    ['  padded  '],
    ['line one\nline two'],
    ['it\'s "quoted"'],
    ['[not, a, list]'],
    ['{not: a map}'],
    ['&anchor'],
    ['*alias'],
    ['!tag'],
    ['|'],
    ['>'],
    ['%percent'],
    ['@at'],
    ['`tick'],
    ['__proto__'],
    ['<script>alert(1)</script>'],
    ['中文标题：测试'],
    ['தமிழ் தலைப்பு'],
    [''],
  ])('read back %j exactly as a string', (title) => {
    expect(roundTrip({ id: 1, title }).data.title).toBe(title)
  })

  it('read back numbers, booleans, id lists, string lists and nested values', () => {
    const data = {
      id: 3,
      venue: [12],
      tags: [1, 2],
      cost: ['S$10', 'S$20'],
      featured: false,
      geo_lat: 1.2897,
      extra: { a: [1, { b: 'c' }] },
    }
    expect(roundTrip(data).data).toEqual(data)
  })

  it('keeps a body that contains a front-matter fence', () => {
    const body = 'Before\n---\nAfter: not front matter'
    expect(roundTrip({ id: 1, title: 'T' }, body).body).toBe(body)
  })

  it('writes a __proto__ key as data, never as a prototype', () => {
    const data = JSON.parse('{"id": 1, "title": "T", "__proto__": {"polluted": true}}') as Record<string, unknown>
    const read = roundTrip(data).data
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype)
  })
})
