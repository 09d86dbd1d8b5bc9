// Finding the site's registrable domain through the browser's own refusals (cookieDomain 'auto').
import { describe, expect, it } from 'vitest'
import { createCookieBrowser } from '../../test/support/cookies.ts'
import { cookieDomainCandidates, findCookieDomain } from './cookie-domain.ts'

describe('cookieDomainCandidates', () => {
  it.each([
    [
      'a.shop.example.co.uk',
      ['co.uk', 'example.co.uk', 'shop.example.co.uk', 'a.shop.example.co.uk'],
    ],
    ['www.shop.test', ['shop.test', 'www.shop.test']],
    ['shop.test', ['shop.test']],
    ['localhost', []],
    ['intranet', []],
    ['127.0.0.1', []],
    ['[::1]', []],
  ])('%s: %j', (host, candidates) => {
    expect(cookieDomainCandidates(host)).toEqual(candidates)
  })
})

describe('findCookieDomain', () => {
  it('takes the broadest domain the browser accepts: example.co.uk for a.shop.example.co.uk', () => {
    const browser = createCookieBrowser()
    const host = 'a.shop.example.co.uk'
    expect(findCookieDomain(host, browser.jar(host))).toBe('example.co.uk')
    // co.uk was offered first and refused; the accepted test cookie was removed at once.
    expect(browser.writes.map(({ cookie }) => /Domain=([^;]+)/.exec(cookie)?.[1])).toEqual([
      'co.uk',
      'example.co.uk',
      'example.co.uk',
    ])
    expect(browser.cookies()).toEqual([])
  })

  it('a site under a public suffix of its own (github.io) stays on its own name', () => {
    const browser = createCookieBrowser(['io', 'github.io'])
    const host = 'docs.alice.github.io'
    expect(findCookieDomain(host, browser.jar(host))).toBe('alice.github.io')
  })

  it.each(['localhost', '127.0.0.1', '[::1]', 'intranet'])(
    '%s: host-only, and no test cookie is written',
    (host) => {
      const browser = createCookieBrowser()
      expect(findCookieDomain(host, browser.jar(host))).toBeUndefined()
      expect(browser.writes).toEqual([])
    },
  )

  it('a test cookie already there from another page does not pass for this one', () => {
    const browser = createCookieBrowser()
    browser.jar('www.shop.test').set('referral_probe=0; Domain=shop.test')
    const random = () => 0.5
    expect(findCookieDomain('www.shop.test', browser.jar('www.shop.test'), random)).toBe(
      'shop.test',
    )
    // Refused everywhere (cookies off): host-only rather than a guess.
    const nothing = { get: () => 'referral_probe=0', set: () => {} }
    expect(findCookieDomain('www.shop.test', nothing)).toBeUndefined()
  })

  it('a jar that throws (a sandboxed frame): host-only, without a throw', () => {
    const jar = {
      get: () => '',
      set: () => {
        throw new DOMException('denied', 'SecurityError')
      },
    }
    expect(findCookieDomain('www.shop.test', jar)).toBeUndefined()
  })
})
