import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ServerConfigError } from './errors.ts'
import { signUserToken } from './user-token.ts'

const SECRET = 'sk_live_acmeSecret01'
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0, 750)
const now = () => NOW

const partsOf = (token: string) => {
  const [version, payload = '', signature = ''] = token.split('.')
  return { version, payload, signature }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('signUserToken', () => {
  it('makes v1.<payload>.<signature>: the exact payload, an HMAC-SHA256 of the secret key', async () => {
    const token = await signUserToken({ secretKey: SECRET, userId: 'user:42@acme', now })
    const { version, payload, signature } = partsOf(token)
    expect(version).toBe('v1')
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(payload, 'base64url').toString()).toBe(
      `{"userId":"user:42@acme","exp":${Math.floor(NOW / 1000) + 3600}}`,
    )
    expect(signature).toBe(createHmac('sha256', SECRET).update(`v1.${payload}`).digest('base64url'))
  })

  it.each([1, 60, 86_400])('expires %i seconds after now', async (expiresInSeconds) => {
    const token = await signUserToken({ secretKey: SECRET, userId: 'u', expiresInSeconds, now })
    const { exp } = JSON.parse(Buffer.from(partsOf(token).payload, 'base64url').toString())
    expect(exp).toBe(Math.floor(NOW / 1000) + expiresInSeconds)
  })

  it('uses the wall clock by default', async () => {
    vi.useFakeTimers({ now: NOW })
    try {
      const token = await signUserToken({ secretKey: SECRET, userId: 'u' })
      const { exp } = JSON.parse(Buffer.from(partsOf(token).payload, 'base64url').toString())
      expect(exp).toBe(Math.floor(NOW / 1000) + 3600)
    } finally {
      vi.useRealTimers()
    }
  })

  it.each([
    ['a public key', { secretKey: 'pk_live_acmeSecret01' }, 'secretKey', 'public key (pk_…)'],
    ['a malformed key', { secretKey: 'sk_prod_acmeSecret01' }, 'secretKey', 'must be a secret key'],
    ['a key of a wrong type', { secretKey: 42 }, 'secretKey', 'must be a secret key'],
    ['a userId with a space', { userId: 'ali ce' }, 'userId', '"ali ce"'],
    ['an empty userId', { userId: '' }, 'userId', '1-128 characters'],
    ['a userId of 129 characters', { userId: 'a'.repeat(129) }, 'userId', '1-128 characters'],
    ['a lifetime of 0', { expiresInSeconds: 0 }, 'expiresInSeconds', 'from 1 to 86400'],
    ['a lifetime over 24 hours', { expiresInSeconds: 86_401 }, 'expiresInSeconds', '86401'],
    ['a fractional lifetime', { expiresInSeconds: 1.5 }, 'expiresInSeconds', '1.5'],
    ['a lifetime as text', { expiresInSeconds: '60' }, 'expiresInSeconds', '"60"'],
    ['a clock that is not a number', { now: () => Number.NaN }, 'now', 'NaN'],
  ])('refuses %s, naming the option', async (_, change, option, says) => {
    const options = { secretKey: SECRET, userId: 'u', now, ...change } as Parameters<
      typeof signUserToken
    >[0]
    const refusal = await signUserToken(options).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refusal).toBeInstanceOf(ServerConfigError)
    expect(refusal).toMatchObject({ name: 'ServerConfigError', option })
    const { message } = refusal as ServerConfigError
    expect(message).toMatch(/^\[referral\] signUserToken: /)
    expect(message).toContain(says)
    // A key is never repeated, not even a wrong one.
    expect(message).not.toContain('acmeSecret01')
  })

  it('says so when Web Crypto is missing', async () => {
    vi.stubGlobal('crypto', undefined)
    await expect(signUserToken({ secretKey: SECRET, userId: 'u', now })).rejects.toMatchObject({
      option: 'crypto',
      message: expect.stringContaining('globalThis.crypto.subtle'),
    })
  })

  it('imports nothing of Node and touches no DOM, so it runs in any server runtime', () => {
    const source = readFileSync(new URL('./user-token.ts', import.meta.url), 'utf8')
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1])
    expect(imports).toEqual(['../api/wire.ts', './errors.ts'])
    expect(source).not.toMatch(/\b(document|window|Buffer|require)\b/)
  })
})
