// How the service looks a key up: by its SHA-256 digest, compared in constant time with every
// stored digest, so how long a lookup takes says nothing about which key (if any) matched.
import * as crypto from 'node:crypto'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createKeyRegistry } from '../../demo/service/keys.ts'

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>()
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) }
})
const compare = vi.mocked(crypto.timingSafeEqual)

const KEYS = ['pk_test_first0001', 'sk_test_middle0001', 'pk_live_last00001']

function registry() {
  const keys = createKeyRegistry(() => 0)
  for (const key of KEYS) {
    keys.add(key, { org: 'acme', mode: key.includes('_live_') ? 'live' : 'test', kind: 'pk' })
  }
  return keys
}

beforeEach(() => {
  compare.mockClear()
})

describe('key lookup', () => {
  it.each([
    ['the first stored key', KEYS[0] as string, true],
    ['the last stored key', KEYS[2] as string, true],
    ['an unknown key of the right shape', 'pk_test_unknown0001', false],
    ['a malformed key', 'pk_test_no!', false],
    ['a key that shares a long prefix with a stored one', 'pk_test_first0002', false],
  ])('compares %s with every stored digest, in constant time', (_, key, known) => {
    const keys = registry()
    if (known) expect(keys.authenticate(key).org).toBe('acme')
    else expect(() => keys.authenticate(key)).toThrow('The API key is not valid.')
    expect(compare).toHaveBeenCalledTimes(KEYS.length)
    // Digests, never the key itself: equal lengths, nothing of the key's text.
    for (const [stored, candidate] of compare.mock.calls) {
      expect((stored as Buffer).length).toBe(32)
      expect((candidate as Buffer).length).toBe(32)
      expect((candidate as Buffer).toString('utf8')).not.toContain(key)
    }
  })
})
