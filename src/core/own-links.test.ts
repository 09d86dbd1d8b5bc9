// The links a browser showed its own referrer: remembered for their window, read back by the
// tracking part with a split (never trusting what storage holds), the newest twenty kept.
import { describe, expect, it } from 'vitest'
import { createMemoryStorage, createSafeStorage } from '../queue/storage.ts'
import { isOwnLink, rememberOwnLink } from './own-links.ts'

const NS = 'referral:test:abc:'
const NOW = 1_800_000_000_000
const DAY = 24 * 60 * 60 * 1000

const storageOf = () => {
  const backing = createMemoryStorage()
  return { backing, storage: createSafeStorage(backing, { quiet: true }) }
}

describe('own links', () => {
  it('a remembered code is the referrer’s own until its window ends, and only it', () => {
    const { storage } = storageOf()
    rememberOwnLink(storage, NS, 'ABCD1234', NOW + 30 * DAY, NOW)
    expect(isOwnLink(storage, NS, 'ABCD1234', NOW + DAY)).toBe(true)
    expect(isOwnLink(storage, NS, 'EFGH5678', NOW + DAY)).toBe(false)
    expect(isOwnLink(storage, NS, 'ABCD1234', NOW + 30 * DAY)).toBe(false)
    // Another namespace (another key or mode) knows nothing of it.
    expect(isOwnLink(storage, 'referral:live:abc:', 'ABCD1234', NOW)).toBe(false)
  })

  it('showing it again renews its window, without a second entry', () => {
    const { storage, backing } = storageOf()
    rememberOwnLink(storage, NS, 'ABCD1234', NOW + DAY, NOW)
    rememberOwnLink(storage, NS, 'ABCD1234', NOW + 10 * DAY, NOW + 12 * 60 * 60 * 1000)
    expect(isOwnLink(storage, NS, 'ABCD1234', NOW + 5 * DAY)).toBe(true)
    expect(backing.getItem(`${NS}own`)?.split(' ')).toHaveLength(1)
  })

  it('keeps the newest twenty, and drops the ones past their window when it writes', () => {
    const { storage, backing } = storageOf()
    rememberOwnLink(storage, NS, 'OLDCODE1', NOW + 1, NOW)
    for (let i = 0; i < 25; i++)
      rememberOwnLink(storage, NS, `CODE${String(i).padStart(4, '0')}`, NOW + DAY, NOW + 2)
    const entries = backing.getItem(`${NS}own`)?.split(' ') ?? []
    expect(entries).toHaveLength(20)
    expect(isOwnLink(storage, NS, 'CODE0004', NOW + 2)).toBe(false)
    expect(isOwnLink(storage, NS, 'CODE0024', NOW + 2)).toBe(true)
    expect(entries.join(' ')).not.toContain('OLDCODE1')
  })

  it.each([
    ['garbage', '{"ABCD1234":1}'],
    ['a code outside the contract', 'AB<CD>12.zzzzzzzz'],
    ['no time', 'ABCD1234.'],
    ['a time that is no number', 'ABCD1234.soon!'],
  ])('stored %s is no own link, and is dropped at the next write', (_what, text) => {
    const { storage, backing } = storageOf()
    backing.setItem(`${NS}own`, text)
    expect(isOwnLink(storage, NS, 'ABCD1234', NOW)).toBe(false)
    rememberOwnLink(storage, NS, 'EFGH5678', NOW + DAY, NOW)
    expect(backing.getItem(`${NS}own`)).toBe(`EFGH5678.${(NOW + DAY).toString(36)}`)
  })
})
