import { describe, expect, it } from 'vitest'
import { withoutParams } from './clean-url.ts'

describe('withoutParams', () => {
  it('removes the parameter and keeps the path, other parameters and the fragment', () => {
    expect(withoutParams('https://shop.example/pricing?plan=pro&ref=ABCD1234#faq', ['ref'])).toBe(
      'https://shop.example/pricing?plan=pro#faq',
    )
  })

  it('leaves no dangling "?" when it was the only parameter', () => {
    expect(withoutParams('https://shop.example/pricing?ref=ABCD1234', ['ref'])).toBe(
      'https://shop.example/pricing',
    )
  })

  it('removes every configured parameter and every repeat of it', () => {
    expect(
      withoutParams('https://shop.example/?ref=A1234567&x=1&via=B1234567&ref=C1234567', [
        'ref',
        'via',
      ]),
    ).toBe('https://shop.example/?x=1')
  })

  it('is null when there is nothing to remove, so the address bar is left alone', () => {
    expect(withoutParams('https://shop.example/?plan=pro', ['ref'])).toBeNull()
    expect(withoutParams('https://shop.example/#ref=ABCD1234', ['ref'])).toBeNull()
  })

  it('is null, without throwing, for an address that is not an absolute URL', () => {
    expect(withoutParams('/pricing?ref=ABCD1234', ['ref'])).toBeNull()
  })

  it("leaves the site's other parameters exactly as they were written", () => {
    // Only the captured parameter is the widget's to remove; re-encoding the rest
    // (%20 -> +, a bare flag -> flag=) can change what the site's own code reads.
    expect(
      withoutParams('https://shop.example/search?q=red%20shoes&sale&ref=ABCD1234&page=2', ['ref']),
    ).toBe('https://shop.example/search?q=red%20shoes&sale&page=2')
  })
})
