// The loader's reading of its script tag (loader/tag.ts): the key, the storage namespace, the
// global and the attributes it acts on; a tag it cannot read cleanly is left to the tracking part,
// and it never accepts what the tracking part refuses (the parity checks at the end).
import { describe, expect, it } from 'vitest'
import { SRC } from '../../../test/support/script-attributes.ts'
import { parsePublicKey } from '../../core/keys.ts'
import { shortHash } from '../../core/short-hash.ts'
import { quiet, readTrackingAttributes } from '../attributes.ts'
import { readKey, readTag } from './tag.ts'

const KEY = 'pk_test_acme'
const PAGE = 'https://shop.test/welcome'

/** A script tag of these attributes, as the loader reads it (getAttribute only). */
const tag = (attributes: Record<string, string>) =>
  ({ getAttribute: (name: string) => attributes[name] ?? null }) as unknown as Element

/** What the loader reads of a tag with the key and these attributes. */
const read = (attributes: Record<string, string>) =>
  readTag(tag({ 'data-key': KEY, ...attributes }))

describe('readKey', () => {
  it.each([
    ['pk_test_acme', 'test'],
    ['pk_live_Acme2024', 'live'],
    [`pk_test_${'a'.repeat(64)}`, 'test'],
  ])('accepts %s', (key, mode) => {
    expect(readKey(key)).toEqual({ key, mode, hash: shortHash(key) })
  })

  it('drops the spaces around the key, and hashes the key without them', () => {
    expect(readKey('  pk_live_acme\n')).toEqual({
      key: 'pk_live_acme',
      mode: 'live',
      hash: shortHash('pk_live_acme'),
    })
  })

  it.each([
    ['a secret key', 'sk_test_acme'],
    ['a secret live key', 'sk_live_acme'],
    ['another mode', 'pk_prod_acme'],
    ['too short', 'pk_test_abc'],
    ['too long', `pk_test_${'a'.repeat(65)}`],
    ['a dash in it', 'pk_test_ac-me'],
    ['two words', 'pk_test_acme pk_test_other'],
    ['empty', ''],
  ])('refuses %s', (_, key) => {
    expect(readKey(key)).toBeUndefined()
  })

  it('refuses no key at all', () => {
    expect(readKey(null)).toBeUndefined()
  })

  it.each([
    'pk_test_acme',
    ' pk_live_acme ',
    '\u00a0pk_test_acme\t',
    'sk_test_acme',
    'pk_test_abc',
    'pk_test_ac me',
    'PK_TEST_acme',
    '',
  ])('reads %j exactly as parsePublicKey does', (written) => {
    let parsed: ReturnType<typeof parsePublicKey> | undefined
    try {
      parsed = parsePublicKey(written)
    } catch {}
    expect(readKey(written)).toEqual(parsed)
  })
})

describe('readTag', () => {
  it('a tag with the key alone: the defaults', () => {
    expect(read({})).toEqual({
      namespace: `referral:test:${shortHash(KEY)}:`,
      global: 'Referral',
      refParams: ['ref'],
      consentRequired: false,
      honorGpc: false,
      cookieDomain: false,
      debug: false,
    })
  })

  it("a live key's namespace is the live one, with that key's hash", () => {
    const key = 'pk_live_Acme2024'
    expect(readTag(tag({ 'data-key': ` ${key} ` }))?.namespace).toBe(
      `referral:live:${shortHash(key)}:`,
    )
  })

  it('reads every attribute it acts on', () => {
    expect(
      read({
        'data-global': 'ReferralWidget',
        'data-ref-param': ' via , ref,r.e-f_1 ',
        'data-consent': 'required',
        'data-honor-gpc': 'true',
        'data-cookie-domain': 'shop.test',
        'data-debug': '',
      }),
    ).toEqual({
      namespace: `referral:test:${shortHash(KEY)}:`,
      global: 'ReferralWidget',
      refParams: ['via', 'ref', 'r.e-f_1'],
      consentRequired: true,
      honorGpc: true,
      cookieDomain: true,
      debug: true,
    })
  })

  it.each([
    ['', true],
    ['true', true],
    ['false', false],
  ])('data-honor-gpc=%j: honorGpc %s', (value, honorGpc) => {
    expect(read({ 'data-honor-gpc': value })?.honorGpc).toBe(honorGpc)
  })

  it('data-cookie-domain is there, whatever its value', () => {
    expect(read({ 'data-cookie-domain': '' })?.cookieDomain).toBe(true)
  })

  it.each([
    ['no key', { 'data-key': '' }],
    ['a secret key', { 'data-key': 'sk_test_acme' }],
    ['a malformed key', { 'data-key': 'pk_test_a' }],
    ['data-global of the page', { 'data-global': 'window' }],
    ['data-global location', { 'data-global': 'location' }],
    ['data-global starting with a digit', { 'data-global': '1abc' }],
    ['data-global with a dash', { 'data-global': 'my-referral' }],
    ['data-global empty', { 'data-global': '' }],
    ['data-ref-param with a bad name', { 'data-ref-param': 'ref,<x>' }],
    ['data-ref-param with an empty name', { 'data-ref-param': 'ref,' }],
    ['data-ref-param empty', { 'data-ref-param': '' }],
    ['data-consent not required', { 'data-consent': 'granted' }],
    ['data-consent empty', { 'data-consent': '' }],
    ['data-honor-gpc maybe', { 'data-honor-gpc': 'maybe' }],
    ['data-honor-gpc yes', { 'data-honor-gpc': 'yes' }],
  ])('leaves a tag to the tracking part: %s', (_, attributes) => {
    expect(read(attributes)).toBeUndefined()
  })

  it('with no data-key at all, reads nothing', () => {
    expect(readTag(tag({}))).toBeUndefined()
  })
})

describe('the loader accepts exactly what the tracking part accepts', () => {
  /** Whether the tracking part reads this tag without one refusal (a refused key throws). */
  function trackingAccepts(attributes: Record<string, string>): boolean {
    try {
      return readTrackingAttributes(tag(attributes), SRC, PAGE, quiet).problems.length === 0
    } catch {
      return false
    }
  }

  const samples: Record<string, string[]> = {
    'data-key': ['pk_test_acme', ' pk_live_acme ', 'sk_test_acme', 'pk_test_abc', 'pk_test_a b'],
    'data-global': [
      'Referral',
      'ReferralWidget',
      '$r',
      '_ref',
      'Window',
      'windows',
      'a'.repeat(64),
      'a'.repeat(65),
      ...['window', 'self', 'top', 'parent', 'frames', 'document', 'location', 'name'],
      '1abc',
      'my-referral',
      ' Referral',
      'réf',
      '',
    ],
    'data-ref-param': [
      'ref',
      'ref,via',
      ' ref , via ',
      'r.e-f_1',
      'a'.repeat(64),
      'a'.repeat(65),
      '',
      ',',
      'ref,',
      'ref,<x>',
      'a b',
      'réf',
    ],
    'data-honor-gpc': ['', 'true', 'false', 'yes', 'maybe', 'TRUE', ' true', '1'],
    'data-consent': ['required', '', 'granted', 'Required', ' required'],
  }
  const cases = Object.entries(samples).flatMap(([name, values]) =>
    values.map((value) => [name, value] as const),
  )

  it.each(cases)('%s=%j', (name, value) => {
    const attributes = { 'data-key': KEY, [name]: value }
    const loader = readTag(tag(attributes)) !== undefined
    expect(loader).toBe(trackingAccepts(attributes))
  })

  it.each([
    [{}],
    [{ 'data-global': 'ReferralWidget', 'data-ref-param': ' via , ref ' }],
    [{ 'data-consent': 'required', 'data-honor-gpc': '' }],
    [{ 'data-honor-gpc': 'false' }],
  ])('and reads the same values from a tag both accept: %j', (attributes) => {
    const written = { 'data-key': ` ${KEY} `, ...attributes }
    const loader = readTag(tag(written))
    const { key, global, options } = readTrackingAttributes(tag(written), SRC, PAGE, quiet)
    expect(loader).toMatchObject({
      namespace: `referral:${key.mode}:${key.hash}:`,
      global,
      refParams: options.refParam ?? ['ref'],
      consentRequired: options.consent === 'required',
      honorGpc: options.honorGpc === true,
    })
  })
})
