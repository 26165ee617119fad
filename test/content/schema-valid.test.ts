import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { SOURCE_SCHEMAS, TRANSLATION_SCHEMA } from '../../src/content/schema/records.ts'

// The store's validator skips checking its schemas against the JSON Schema meta-schema at every start.
describe('the record schemas', () => {
  it('are valid JSON Schemas, each of them', () => {
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true })
    for (const schema of [...Object.values(SOURCE_SCHEMAS), TRANSLATION_SCHEMA]) {
      expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true)
    }
  })

  it('would be caught here if one were not', () => {
    const ajv = new Ajv({ allErrors: true, strict: true })
    expect(ajv.validateSchema({ type: 'object', properties: { id: { type: 'integr' } } })).toBe(false)
  })
})
