import { afterEach, expect, it } from 'vitest'
import { own } from './own.ts'

afterEach(() => {
  delete (Object.prototype as { body?: unknown }).body
})

it("copies own fields onto an object without a prototype: the page's Object.prototype adds none", () => {
  Object.defineProperty(Object.prototype, 'body', {
    value: 'polluted',
    enumerable: true,
    configurable: true,
    writable: true,
  })
  const init = own({ method: 'GET' })
  const plain = ({ method: 'GET' } as { body?: unknown }).body
  const copied = (init as { body?: unknown }).body
  delete (Object.prototype as { body?: unknown }).body
  expect(plain).toBe('polluted')
  expect(copied).toBeUndefined()
  expect(init.method).toBe('GET')
  expect(Object.getPrototypeOf(init)).toBeNull()
})
