// The script tag's data- attributes (WIDGET.md section 1), when they are good: each is read into
// its option, with the defaults where an attribute is left out (the script tag:
// test/support/script-attributes.ts; bad attributes: attributes.test.ts).
import { describe, expect, it } from 'vitest'
import { ORIGIN, read, readAttributes, SRC, script } from '../../test/support/script-attributes.ts'

describe('good attributes', () => {
  it('a key alone: the service is the script’s origin, everything else default', () => {
    const config = read({})
    expect(config.problems).toEqual([])
    expect(config.messages).toBeUndefined()
    expect(config.options).toEqual({ publicKey: 'pk_test_acme', apiBase: ORIGIN })
  })

  it('every attribute, read into the options', () => {
    const config = read({
      'data-key': 'pk_live_acme',
      'data-api': 'https://api.referrals.example/',
      'data-campaign': 'camp_acmeFriendsAndFamily',
      'data-user-id': 'user_42@acme.test',
      'data-ref-param': 'ref, via',
      'data-landing-url': 'https://shop.example/join?utm_source=referral',
      'data-locale': 'de-DE',
      'data-theme': 'dark',
      'data-clean-url': 'false',
      'data-messages': '{"copy":"Grab it","headline":"Invite & earn {get}"}',
    })
    expect(config.problems).toEqual([])
    expect(config.options).toEqual({
      publicKey: 'pk_live_acme',
      apiBase: 'https://api.referrals.example/',
      campaignId: 'camp_acmeFriendsAndFamily',
      userId: 'user_42@acme.test',
      refParam: ['ref', 'via'],
      landingUrl: 'https://shop.example/join?utm_source=referral',
      locale: 'de-DE',
      theme: 'dark',
      cleanUrl: false,
    })
    expect(config.messages).toEqual({ copy: 'Grab it', headline: 'Invite & earn {get}' })
  })

  it('a missing data-api falls back to the origin of the script’s own URL', () => {
    expect(read({}, 'http://localhost:5173/referral-widget.js').options.apiBase).toBe(
      'http://localhost:5173',
    )
  })

  it('data-api wins over the script’s origin', () => {
    expect(read({ 'data-api': 'https://api.example/' }).options.apiBase).toBe(
      'https://api.example/',
    )
  })

  it('a relative data-api is kept as written, for createReferral to resolve against the page', () => {
    const config = read({ 'data-api': '/referral' })
    expect(config.problems).toEqual([])
    expect(config.options.apiBase).toBe('/referral')
  })

  it('data-cookie-domain on a page of that domain: the cookieDomain option, lower-cased', () => {
    const config = readAttributes(
      script({ 'data-key': 'pk_test_acme', 'data-cookie-domain': '.Shop.Example' }),
      SRC,
      'https://www.shop.example/pricing',
    )
    expect(config.problems).toEqual([])
    expect(config.options.cookieDomain).toBe('shop.example')
  })

  it('data-cookie-domain that is not the page’s host or a parent: reported and ignored, the widget runs', () => {
    const config = readAttributes(
      script({ 'data-key': 'pk_test_acme', 'data-cookie-domain': 'shop.example' }),
      SRC,
      'https://www.shop-example.net/',
    )
    expect(config.problems).toEqual([
      `data-cookie-domain="shop.example" is ignored: it is neither this page's host (www.shop-example.net) nor a parent of it, so the browser would refuse the cookie.`,
    ])
    expect(config.options).toEqual({ publicKey: 'pk_test_acme', apiBase: ORIGIN })
  })

  it('data-cookie-domain="auto" on any page: the widget finds the domain itself', () => {
    const config = readAttributes(
      script({ 'data-key': 'pk_test_acme', 'data-cookie-domain': 'AUTO' }),
      SRC,
      'https://www.shop-example.net/',
    )
    expect(config.problems).toEqual([])
    expect(config.options.cookieDomain).toBe('auto')
  })

  it('data-attribution="first": the attribution option', () => {
    expect(read({ 'data-attribution': 'first' }).options.attribution).toBe('first')
  })

  it('data-outbound: the hosts, trimmed and lower-cased; empty entries skipped', () => {
    const config = read({ 'data-outbound': ' App.Example.io, *.example.ORG ,,' })
    expect(config.problems).toEqual([])
    expect(config.options.outbound).toEqual(['app.example.io', '*.example.org'])
    expect(read({ 'data-outbound': '' }).options.outbound).toEqual([])
  })

  it('data-outbound with a bad entry: the sentence names the attribute and its value', () => {
    const config = read({ 'data-outbound': 'app.example.io, https://app.example.org/' })
    expect(config.problems).toEqual([
      'data-outbound="app.example.io, https://app.example.org/" is ignored: every entry must be a host name such as app.example.io, or *.example.org for its subdomains.',
    ])
    expect(config.options.outbound).toBeUndefined()
  })

  it('the locale is canonicalised', () => {
    expect(read({ 'data-locale': 'EN-us' }).options.locale).toBe('en-US')
  })

  it.each(['light', 'dark', 'auto'] as const)('data-theme="%s"', (theme) => {
    expect(read({ 'data-theme': theme }).options.theme).toBe(theme)
  })

  it.each([
    ['true', undefined],
    ['', undefined],
    ['false', false],
  ])('data-clean-url=%j → cleanUrl %j (default true)', (value, cleanUrl) => {
    const config = read({ 'data-clean-url': value })
    expect(config.problems).toEqual([])
    expect(config.options.cleanUrl).toBe(cleanUrl)
  })

  it.each([
    ['true', true],
    ['', true],
    ['false', undefined],
  ])('data-honor-gpc=%j → honorGpc %j (default false)', (value, honorGpc) => {
    const config = read({ 'data-honor-gpc': value })
    expect(config.problems).toEqual([])
    expect(config.options.honorGpc).toBe(honorGpc)
  })

  it('data-messages keeps the strings and drops other values', () => {
    const config = read({ 'data-messages': '{"copy":"Grab it","copied":42,"share":null}' })
    expect(config.problems).toEqual([])
    expect(config.messages).toEqual({ copy: 'Grab it' })
  })

  it('data-messages keeps a counted message’s plural forms', () => {
    const config = read({
      'data-messages': '{"offline":{"one":"1 waits","other":"{count} wait"},"copy":{"x":1}}',
    })
    expect(config.messages).toEqual({ offline: { one: '1 waits', other: '{count} wait' } })
  })

  it.each([
    ['true', true],
    ['false', undefined],
  ])('data-share-utm=%j', (value, shareUtm) => {
    const config = read({ 'data-share-utm': value })
    expect(config.problems).toEqual([])
    expect(config.shareUtm).toBe(shareUtm)
  })

  it('data-share-utm must be true or false', () => {
    const config = read({ 'data-share-utm': 'yes' })
    expect(config.problems).toEqual(['data-share-utm="yes" is ignored: it must be true or false.'])
    expect(config.shareUtm).toBeUndefined()
  })

  it('a key with stray spaces is accepted', () => {
    expect(read({ 'data-key': '  pk_test_acme ' }).options.publicKey).toBe('pk_test_acme')
  })
})
