// The storage the widget finds (defaultStorage), its memory stand-in (createMemoryStorage), and
// jsonOf over what storage gives (createSafeStorage's own tests: safe-storage.test.ts).
import { afterEach, describe, expect, it } from 'vitest'
import { blocked, securityError, spyOnWarnings } from '../../test/support/storage-warnings.ts'
import { createMemoryStorage, createSafeStorage, defaultStorage, jsonOf } from './storage.ts'

spyOnWarnings()

describe('defaultStorage', () => {
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'localStorage')
  })

  it('is undefined where there is no localStorage (Node)', () => {
    Reflect.deleteProperty(globalThis, 'localStorage')
    expect(defaultStorage()).toBeUndefined()
  })

  it('is undefined, without throwing, when touching localStorage throws', () => {
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw securityError()
      },
    })
    expect(() => defaultStorage()).not.toThrow()
    expect(defaultStorage()).toBeUndefined()
  })

  it('is the page localStorage when there is one', () => {
    const local = createMemoryStorage()
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: local })
    expect(defaultStorage()).toBe(local)
  })
})

describe('createMemoryStorage', () => {
  it('behaves like Web Storage', () => {
    const storage = createMemoryStorage()
    expect(storage.length).toBe(0)
    expect(storage.getItem('a')).toBeNull()
    storage.setItem('a', '1')
    storage.setItem('b', '2')
    storage.setItem('a', '3')
    expect(storage.length).toBe(2)
    expect(storage.getItem('a')).toBe('3')
    expect([storage.key(0), storage.key(1)]).toEqual(['a', 'b'])
    expect(storage.key(2)).toBeNull()
    storage.removeItem('a')
    expect(storage.length).toBe(1)
    expect(storage.getItem('a')).toBeNull()
  })

  it('stores values as strings, like Web Storage', () => {
    const storage = createMemoryStorage()
    Reflect.apply(storage.setItem, storage, ['n', 42])
    expect(storage.getItem('n')).toBe('42')
  })

  it('gives each instance its own contents', () => {
    const one = createMemoryStorage()
    const two = createMemoryStorage()
    one.setItem('a', '1')
    expect(two.getItem('a')).toBeNull()
  })
})

describe('jsonOf, over what storage gives', () => {
  const make = (entries: Record<string, string>) => {
    const backing = createMemoryStorage()
    for (const [key, value] of Object.entries(entries)) backing.setItem(key, value)
    return createSafeStorage(backing)
  }

  it('parses stored JSON', () => {
    const storage = make({ k: '{"v":1,"id":"v_0123456789"}', list: '[1,2]' })
    expect(jsonOf(storage.get('k'))).toEqual({ v: 1, id: 'v_0123456789' })
    expect(jsonOf(storage.get('list'))).toEqual([1, 2])
  })

  it('is null for a missing key', () => {
    expect(jsonOf(make({}).get('missing'))).toBeNull()
  })

  it.each([
    ['truncated JSON', '{"v":1,"id":'],
    ['plain text', 'hello'],
    ['undefined written as text', 'undefined'],
    ['empty', ''],
  ])('is null for %s instead of throwing', (_, raw) => {
    const storage = make({ k: raw })
    expect(() => jsonOf(storage.get('k'))).not.toThrow()
    expect(jsonOf(storage.get('k'))).toBeNull()
  })

  it('is null for values over the size limit, and reads values at the limit', () => {
    const storage = make({ big: JSON.stringify('x'.repeat(20)) })
    expect(jsonOf(storage.get('big'), 21)).toBeNull()
    expect(jsonOf(storage.get('big'), 22)).toBe('x'.repeat(20))
  })

  it('is null when storage cannot be read', () => {
    expect(jsonOf(createSafeStorage(blocked()).get('k'))).toBeNull()
  })
})
