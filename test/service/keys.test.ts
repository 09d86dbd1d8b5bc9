// How the service looks a key up: by its SHA-256 digest, compared in constant time with every
// stored digest, so how long a lookup takes says nothing about which key (if any) matched. A user
// token's signature is checked the same way, against every working secret key of its scope.
import * as crypto from 'node:crypto'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createKeyRegistry } from '../../demo/service/keys.ts'
import { verifyUserToken } from '../../demo/service/user-tokens.ts'
import { signUserToken } from '../../src/server/user-token.ts'

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

describe('user token signatures', () => {
  const SECRETS = ['sk_test_first0001', 'sk_test_second001', 'sk_test_third0001']

  function signers(now: () => number) {
    const keys = createKeyRegistry(now)
    for (const key of SECRETS) keys.add(key, { org: 'acme', mode: 'test', kind: 'sk' })
    // Keys that must never sign for acme/test: another mode, a public key.
    keys.add('sk_live_other0001', { org: 'acme', mode: 'live', kind: 'sk' })
    keys.add('pk_test_public001', { org: 'acme', mode: 'test', kind: 'pk' })
    return keys
  }

  it.each([
    ['the first secret key', SECRETS[0] as string, true],
    ['the last secret key', SECRETS[2] as string, true],
    ['an unknown key', 'sk_test_unknown001', false],
    ['the public key of the scope', 'pk_test_public001', false],
  ])(
    'compares a token signed by %s with the HMAC of every working secret key of its scope',
    async (_, signer, genuine) => {
      const keys = signers(() => 0)
      const token = await signUserToken({
        secretKey: signer.replace(/^pk_/, 'sk_'),
        userId: 'u',
        now: () => 0,
      })
      const forged = signer.startsWith('pk_')
        ? token.replace(
            /\.[^.]+$/,
            `.${crypto.createHmac('sha256', signer).update(token.split('.').slice(0, 2).join('.')).digest('base64url')}`,
          )
        : token
      compare.mockClear()
      const verdict = verifyUserToken(forged, { org: 'acme', mode: 'test' }, keys, 0, 'body')
      if (genuine) expect((await verdict).userId).toBe('u')
      else await expect(verdict).rejects.toMatchObject({ code: 'user_token_invalid' })
      expect(compare).toHaveBeenCalledTimes(SECRETS.length)
    },
  )

  it('leaves out a rolled key once its 24 hours are over', async () => {
    let now = 0
    const keys = signers(() => now)
    keys.roll(SECRETS[0] as string)
    now = 24 * 3600 * 1000 - 1
    // The new key and the rolled one, during its last millisecond.
    expect(await keys.signingKeys({ org: 'acme', mode: 'test' })).toHaveLength(SECRETS.length + 1)
    now += 1
    expect(await keys.signingKeys({ org: 'acme', mode: 'test' })).toHaveLength(SECRETS.length)
  })
})
