import { describe, expect, it } from 'vitest'
import { ConfigError } from '../shared/errors.ts'
import { parsePublicKey } from './keys.ts'
import { shortHash } from './short-hash.ts'

/** The ConfigError `fn` throws; fails the test when it throws nothing or something else. */
function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn()
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw new Error(`expected a ConfigError, got ${String(error)}`)
  }
  throw new Error('expected a ConfigError, nothing was thrown')
}

describe('parsePublicKey', () => {
  it('accepts a pk_test_ key and reports test mode with a hash of the key', () => {
    expect(parsePublicKey('pk_test_acme')).toEqual({
      key: 'pk_test_acme',
      mode: 'test',
      hash: shortHash('pk_test_acme'),
    })
  })

  it('accepts a pk_live_ key and reports live mode', () => {
    expect(parsePublicKey('pk_live_globex')).toEqual({
      key: 'pk_live_globex',
      mode: 'live',
      hash: shortHash('pk_live_globex'),
    })
  })

  it('accepts 4 and 64 characters after the prefix, letters and digits of both cases', () => {
    expect(parsePublicKey('pk_test_aB3d').key).toBe('pk_test_aB3d')
    const long = `pk_live_${'Zz9'.repeat(21)}x`
    expect(long.length - 'pk_live_'.length).toBe(64)
    expect(parsePublicKey(long).key).toBe(long)
  })

  it('trims whitespace around an attribute value, so the header never carries it', () => {
    expect(parsePublicKey('  pk_test_acme\n').key).toBe('pk_test_acme')
  })

  it.each(['sk_test_acme', 'sk_live_acme', 'sk_test_acmeold', ' sk_live_globex '])(
    'refuses the secret key %j, saying secret keys must never reach a browser',
    (key) => {
      const error = configErrorOf(() => parsePublicKey(key))
      expect(error.name).toBe('ConfigError')
      expect(error.option).toBe('publicKey')
      expect(error.message).toMatch(/secret keys must never reach a browser/i)
      // The message goes to the console: it must not repeat the secret itself.
      expect(error.message).not.toContain(key.trim())
    },
  )

  it.each([
    ['too short', 'pk_test_abc'],
    ['nothing after the prefix', 'pk_test_'],
    ['too long', `pk_test_${'a'.repeat(65)}`],
    ['unknown mode', 'pk_prod_acme'],
    ['upper-case prefix', 'PK_TEST_ACME'],
    ['a dash', 'pk_test_ac-me'],
    ['punctuation', 'pk_test_acme!'],
    ['no prefix', 'acme'],
    ['a pasted header', 'Bearer pk_test_acme'],
    ['two keys', 'pk_test_acme pk_test_globex'],
    ['a restricted-key look-alike', 'rk_test_acme'],
  ])('refuses a malformed key (%s) with a message naming the expected shape', (_, key) => {
    const error = configErrorOf(() => parsePublicKey(key))
    expect(error.option).toBe('publicKey')
    expect(error.message).toContain('publicKey')
    expect(error.message).toMatch(/not a valid public key/)
    expect(error.message).toContain('pk_test_')
    expect(error.message).toContain('pk_live_')
    expect(error.message).not.toMatch(/secret/i)
  })

  it.each([undefined, null, ''])('refuses a missing key (%j) saying one is required', (key) => {
    const error = configErrorOf(() => parsePublicKey(key))
    expect(error.option).toBe('publicKey')
    expect(error.message).toMatch(/required/)
    expect(error.message).toContain('pk_test_')
  })

  it.each([
    [42, 'number'],
    [{ key: 'pk_test_acme' }, 'object'],
    [true, 'boolean'],
  ])('refuses a non-string key %j, naming its type', (key, type) => {
    const error = configErrorOf(() => parsePublicKey(key))
    expect(error.message).toMatch(/must be a string/)
    expect(error.message).toContain(type)
  })

  it('names the option or attribute it was given in the error', () => {
    const malformed = configErrorOf(() => parsePublicKey('pk_test_x', 'data-key'))
    expect(malformed.option).toBe('data-key')
    expect(malformed.message).toContain('data-key')
    const secret = configErrorOf(() => parsePublicKey('sk_test_acme', 'data-key'))
    expect(secret.option).toBe('data-key')
    const missing = configErrorOf(() => parsePublicKey(undefined, 'data-key'))
    expect(missing.message).toContain('data-key')
  })
})

describe('shortHash', () => {
  it('is 32-bit FNV-1a written in base 36 (published test vectors)', () => {
    expect(shortHash('')).toBe((0x811c9dc5).toString(36))
    expect(shortHash('a')).toBe((0xe40c292c).toString(36))
    expect(shortHash('foobar')).toBe((0xbf9cf968).toString(36))
  })

  it('is stable, short and does not reveal the key', () => {
    const hash = shortHash('pk_test_acme')
    expect(shortHash('pk_test_acme')).toBe(hash)
    expect(hash).toMatch(/^[0-9a-z]{1,7}$/)
    expect(hash).not.toContain('acme')
  })

  it('keeps test and live, and two sites, apart', () => {
    const hashes = new Set(
      ['pk_test_acme', 'pk_live_acme', 'pk_test_globex', 'pk_live_globex'].map(
        (key) => parsePublicKey(key).hash,
      ),
    )
    expect(hashes.size).toBe(4)
  })
})
