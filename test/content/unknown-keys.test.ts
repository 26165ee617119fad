import { describe, expect, it } from 'vitest'
import { sourceKeys, unknownKeyWarnings } from '../../src/content/checks/unknown-keys.ts'
import { closestKeys, editDistance } from '../../src/suggest.ts'

describe('did you mean', () => {
  it('counts a swap of two neighbours as one edit, and case and -/_ as none', () => {
    expect(editDistance('veneu', 'venue', 2)).toBe(1)
    expect(closestKeys('Start-Date', sourceKeys('events'))).toEqual(['start_date'])
  })

  it('names every key equally near, and none when nothing is near', () => {
    expect(closestKeys('sate', sourceKeys('venues'))).toEqual(['date', 'state'])
    expect(closestKeys('colour', sourceKeys('events'))).toEqual([])
    expect(closestKeys('ab', sourceKeys('events'))).toEqual([])
  })

  it('passes over a huge key, and names at most ten unknown keys of a file', () => {
    // Lengths more than two apart are never compared letter by letter.
    expect(closestKeys('t'.repeat(1_000_000), sourceKeys('events'))).toEqual([])
    const data = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`extra${i}`, i]))
    const warnings = unknownKeyWarnings('tags', data, 'source')
    expect(warnings).toHaveLength(11)
    expect(warnings[10]).toBe('15 more fields are not fields of a tag and are ignored')
  })
})
