import { describe, expect, it } from 'vitest'
import { readReferralCode } from './referral-url.ts'

describe('readReferralCode', () => {
  it('reads the code from the ref parameter', () => {
    expect(readReferralCode('https://shop.example/?ref=ABCD1234', ['ref'])).toBe('ABCD1234')
    expect(
      readReferralCode('https://shop.example/pricing?utm=x&ref=abcd1234ef#plans', ['ref']),
    ).toBe('abcd1234ef')
  })

  it('accepts 8 to 12 letters or digits and nothing else', () => {
    const read = (value: string) =>
      readReferralCode(`https://shop.example/?ref=${encodeURIComponent(value)}`, ['ref'])
    expect(read('A1b2C3d4')).toBe('A1b2C3d4')
    expect(read('A1b2C3d4E5f6')).toBe('A1b2C3d4E5f6')
    expect(read('A1b2C3d')).toBeNull()
    expect(read('A1b2C3d4E5f6g')).toBeNull()
    expect(read('ABCD-1234')).toBeNull()
    expect(read('<script>x')).toBeNull()
    expect(read('ABCD 1234')).toBeNull()
    expect(read('')).toBeNull()
  })

  it('is null when the parameter is absent, or only in the fragment', () => {
    expect(readReferralCode('https://shop.example/?via=ABCD1234', ['ref'])).toBeNull()
    expect(readReferralCode('https://shop.example/#ref=ABCD1234', ['ref'])).toBeNull()
  })

  it('is null, without throwing, for an address that is not an absolute URL', () => {
    expect(readReferralCode('not a url?ref=ABCD1234', ['ref'])).toBeNull()
    expect(readReferralCode('/relative?ref=ABCD1234', ['ref'])).toBeNull()
  })

  it('honours the configured parameter names, in their configured order', () => {
    expect(readReferralCode('https://shop.example/?via=VIA12345', ['ref', 'via'])).toBe('VIA12345')
    expect(
      readReferralCode('https://shop.example/?via=VIA12345&ref=REF12345', ['ref', 'via']),
    ).toBe('REF12345')
    expect(
      readReferralCode('https://shop.example/?via=VIA12345&ref=REF12345', ['via', 'ref']),
    ).toBe('VIA12345')
  })

  it('skips malformed values and takes the first well-formed one', () => {
    expect(readReferralCode('https://shop.example/?ref=bad&ref=GOOD1234', ['ref'])).toBe('GOOD1234')
    expect(readReferralCode('https://shop.example/?ref=bad&via=GOOD1234', ['ref', 'via'])).toBe(
      'GOOD1234',
    )
  })
})
