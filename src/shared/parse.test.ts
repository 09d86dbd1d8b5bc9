import { afterEach, expect, it } from 'vitest'
import { number, object, optional, parse, string } from './parse.ts'

const prototypes = Object.prototype as Record<string, unknown>

afterEach(() => {
  delete prototypes.extra
  delete prototypes.note
})

it("reads own fields only: a parser or a field on the page's Object.prototype is neither called nor read", () => {
  const shape = object({ id: string(), count: number, note: optional(string()) })
  // What a prototype-pollution bug in a query-string library leaves behind.
  prototypes.extra = 'not a parser'
  prototypes.note = 'inherited'
  const parsed = parse(shape, { id: 'a', count: 1 })
  const missing = parse(shape, { count: 1 })
  delete prototypes.extra
  delete prototypes.note

  expect(parsed).toEqual({ id: 'a', count: 1 })
  expect(parsed?.note, 'a field left out reads as undefined').toBeUndefined()
  expect(missing).toBeNull()
})
