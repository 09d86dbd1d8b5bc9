// createSafeStorage over working storage, without storage (private mode, blocked) and when
// writes are refused (quota): what it keeps, where, and the one [referral] warning.
import { describe, expect, it } from 'vitest'
import { blocked, spyOnWarnings, warn } from '../../test/support/storage-warnings.ts'
import { createMemoryStorage, createSafeStorage, type StorageLike } from './storage.ts'

spyOnWarnings()

const quotaError = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError')

/** localStorage as Safari's private mode or a full disk has it: reads work, writes throw. */
function refusingWrites(initial: Record<string, string> = {}) {
  const backing = createMemoryStorage()
  for (const [key, value] of Object.entries(initial)) backing.setItem(key, value)
  let refuse = true
  const storage: StorageLike = {
    get length() {
      return backing.length
    },
    key: (index) => backing.key(index),
    getItem: (key) => backing.getItem(key),
    setItem: (key, value) => {
      if (refuse) throw quotaError()
      backing.setItem(key, value)
    },
    removeItem: (key) => backing.removeItem(key),
  }
  return {
    storage,
    backing,
    accept: () => {
      refuse = false
    },
  }
}

function expectOneReferralWarning(pattern: RegExp) {
  expect(warn).toHaveBeenCalledTimes(1)
  const [message] = warn.mock.calls[0] ?? []
  expect(String(message)).toMatch(/^\[referral\] /)
  expect(String(message)).toMatch(pattern)
}

describe('createSafeStorage over working storage', () => {
  it('reads and writes through to the backing storage, silently', () => {
    const backing = createMemoryStorage()
    const storage = createSafeStorage(backing)
    storage.set('referral:test:abc:visitor', '{"id":"v1"}')
    expect(backing.getItem('referral:test:abc:visitor')).toBe('{"id":"v1"}')
    expect(storage.get('referral:test:abc:visitor')).toBe('{"id":"v1"}')
    expect(storage.isVolatile('referral:test:abc:visitor')).toBe(false)
    storage.remove('referral:test:abc:visitor')
    expect(backing.getItem('referral:test:abc:visitor')).toBeNull()
    expect(storage.get('referral:test:abc:visitor')).toBeNull()
    expect(warn).not.toHaveBeenCalled()
  })

  it('sees what another tab wrote to the same storage', () => {
    const backing = createMemoryStorage()
    const tabA = createSafeStorage(backing)
    const tabB = createSafeStorage(backing)
    tabA.set('referral:test:abc:q:1', 'x')
    expect(tabB.get('referral:test:abc:q:1')).toBe('x')
    expect(tabB.keys('referral:test:abc:')).toEqual(['referral:test:abc:q:1'])
  })

  it('lists only keys with the prefix, so namespaces never mix', () => {
    const backing = createMemoryStorage()
    backing.setItem('referral:test:abc:q:1', '1')
    backing.setItem('referral:live:abc:q:1', '2')
    backing.setItem('referral:test:xyz:q:1', '3')
    backing.setItem('theme', 'dark')
    const storage = createSafeStorage(backing)
    expect(storage.keys('referral:test:abc:')).toEqual(['referral:test:abc:q:1'])
    expect(storage.keys('referral:').sort()).toEqual([
      'referral:live:abc:q:1',
      'referral:test:abc:q:1',
      'referral:test:xyz:q:1',
    ])
  })

  it('counts writes', () => {
    const storage = createSafeStorage(createMemoryStorage())
    expect(storage.writes).toBe(0)
    storage.set('a', '1')
    storage.set('a', '2')
    storage.remove('a')
    expect(storage.writes).toBe(2)
  })
})

describe('createSafeStorage without storage (private mode, blocked)', () => {
  it('keeps everything in memory, with a single [referral] warning', () => {
    const storage = createSafeStorage(undefined)
    expectOneReferralWarning(/memory/)
    storage.set('referral:test:abc:q:1', 'one')
    storage.set('referral:test:abc:q:2', 'two')
    expect(storage.get('referral:test:abc:q:1')).toBe('one')
    expect(storage.isVolatile('referral:test:abc:q:1')).toBe(true)
    expect(storage.keys('referral:test:abc:').sort()).toEqual([
      'referral:test:abc:q:1',
      'referral:test:abc:q:2',
    ])
    storage.remove('referral:test:abc:q:1')
    expect(storage.get('referral:test:abc:q:1')).toBeNull()
    expect(storage.writes).toBe(2)
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it('warns once per page, however many instances are made', () => {
    createSafeStorage(undefined)
    createSafeStorage(undefined)
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it('stays silent when asked to be quiet (Node, server-side rendering)', () => {
    const storage = createSafeStorage(undefined, { quiet: true })
    storage.set('k', 'v')
    expect(storage.get('k')).toBe('v')
    expect(warn).not.toHaveBeenCalled()
  })

  it('survives storage where every access throws, warning once', () => {
    const storage = createSafeStorage(blocked())
    // Unknown, not absent: what storage holds is left alone.
    expect(storage.get('referral:test:abc:visitor')).toBeUndefined()
    expect(storage.keys('referral:')).toEqual([])
    storage.set('referral:test:abc:visitor', 'v1')
    storage.set('referral:test:abc:q:1', 'e1')
    storage.set('referral:test:abc:q:2', 'e2')
    expect(storage.get('referral:test:abc:visitor')).toBe('v1')
    expect(storage.isVolatile('referral:test:abc:visitor')).toBe(true)
    expect(storage.keys('referral:test:abc:q:').sort()).toEqual([
      'referral:test:abc:q:1',
      'referral:test:abc:q:2',
    ])
    expect(() => storage.remove('referral:test:abc:q:1')).not.toThrow()
    // Gone from memory; whatever the storage holds is unknown, and no longer listed.
    expect(storage.get('referral:test:abc:q:1')).toBeUndefined()
    expect(storage.keys('referral:test:abc:q:')).toEqual(['referral:test:abc:q:2'])
    expectOneReferralWarning(/memory/)
  })
})

describe('createSafeStorage when writes are refused (quota)', () => {
  it('keeps refused writes in memory, newer than what storage holds, with one warning', () => {
    const { storage: backing } = refusingWrites({ 'referral:test:abc:visitor': 'old' })
    const storage = createSafeStorage(backing)
    expect(warn).not.toHaveBeenCalled()
    storage.set('referral:test:abc:visitor', 'new')
    storage.set('referral:test:abc:q:1', 'e1')
    storage.set('referral:test:abc:q:2', 'e2')
    expect(storage.get('referral:test:abc:visitor')).toBe('new')
    expect(storage.isVolatile('referral:test:abc:visitor')).toBe(true)
    expect(storage.get('referral:test:abc:q:2')).toBe('e2')
    expectOneReferralWarning(/memory/)
  })

  it('lists keys from storage and memory once each', () => {
    const { storage: backing } = refusingWrites({
      'referral:test:abc:q:1': 'stored',
      'other:key': 'x',
    })
    const storage = createSafeStorage(backing)
    storage.set('referral:test:abc:q:1', 'newer')
    storage.set('referral:test:abc:q:2', 'memory only')
    expect(storage.keys('referral:test:abc:').sort()).toEqual([
      'referral:test:abc:q:1',
      'referral:test:abc:q:2',
    ])
  })

  it('moves a key back to storage once a write succeeds again', () => {
    const { storage: backing, backing: raw, accept } = refusingWrites()
    const storage = createSafeStorage(backing)
    storage.set('referral:test:abc:q:1', 'first')
    expect(raw.getItem('referral:test:abc:q:1')).toBeNull()
    accept()
    storage.set('referral:test:abc:q:1', 'second')
    expect(raw.getItem('referral:test:abc:q:1')).toBe('second')
    expect(storage.isVolatile('referral:test:abc:q:1')).toBe(false)
    expect(storage.get('referral:test:abc:q:1')).toBe('second')
  })

  it('removes a key from memory and storage alike', () => {
    const { storage: backing, backing: raw } = refusingWrites({ 'referral:test:abc:q:1': 'old' })
    const storage = createSafeStorage(backing)
    storage.set('referral:test:abc:q:1', 'new')
    storage.remove('referral:test:abc:q:1')
    expect(storage.get('referral:test:abc:q:1')).toBeNull()
    expect(raw.getItem('referral:test:abc:q:1')).toBeNull()
    expect(storage.keys('referral:')).toEqual([])
  })
})
