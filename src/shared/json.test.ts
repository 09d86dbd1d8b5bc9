import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { fuzzOptions } from '../../test/support/fuzz.ts'
import { fromJson, toJson } from './json.ts'

/** Whether any string in `value` (keys too) holds a control character. */
const hasControl = (value: unknown): boolean =>
  typeof value === 'string'
    ? [...value].some((c) => c < ' ')
    : typeof value === 'object' && value !== null
      ? Object.entries(value).some(([key, item]) => hasControl(key) || hasControl(item))
      : false

/** Plain data as the widget stores and sends it: no control characters in its strings. */
const data = fc.jsonValue().filter((value) => !hasControl(value))

afterEach(() => {
  delete (Array.prototype as { toJSON?: unknown }).toJSON
  delete (Object.prototype as { toJSON?: unknown }).toJSON
  delete (Object.prototype as { polluted?: unknown }).polluted
})

describe('toJson', () => {
  it('writes what JSON.stringify writes on a clean page', () => {
    fc.assert(
      fc.property(data, (value) => {
        expect(toJson(value)).toBe(JSON.stringify(value))
      }),
      fuzzOptions,
    )
  })

  it('escapes control characters and lone surrogates so that the text reads back the same', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(JSON.parse(toJson({ text }))).toEqual({ text })
      }),
      fuzzOptions,
    )
    expect(toJson('a\nb"\\')).toBe('"a\\u000ab\\"\\\\"')
    expect(toJson('\ud800')).toBe('"\\ud800"')
  })

  it('ignores toJSON on Array.prototype and Object.prototype, and inherited fields', () => {
    const value = { v: 1, events: [{ id: 'e_1', list: [1, 2] }], skipped: undefined }
    const clean = toJson(value)
    ;(Array.prototype as { toJSON?: unknown }).toJSON = function (this: unknown[]) {
      return JSON.stringify(this.slice())
    }
    ;(Object.prototype as { toJSON?: unknown }).toJSON = () => 'hijacked'
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 'yes',
      enumerable: true,
      configurable: true,
      writable: true,
    })
    const hostile = toJson(value)
    // Taken back before asserting: the test runner serializes with the page's JSON too.
    delete (Array.prototype as { toJSON?: unknown }).toJSON
    delete (Object.prototype as { toJSON?: unknown }).toJSON
    delete (Object.prototype as { polluted?: unknown }).polluted
    expect(hostile).toBe(clean)
    expect(clean).toBe('{"v":1,"events":[{"id":"e_1","list":[1,2]}]}')
  })

  it('leaves out functions and undefined, and writes non-finite numbers as null, as JSON does', () => {
    expect(toJson({ a: undefined, b: () => 1, c: Number.NaN, d: [undefined, Infinity] })).toBe(
      '{"c":null,"d":[null,null]}',
    )
  })
})

describe('fromJson', () => {
  it('reads JSON, and gives null for text that is not', () => {
    expect(fromJson('{"a":[1]}')).toEqual({ a: [1] })
    expect(fromJson('{')).toBeNull()
  })
})
