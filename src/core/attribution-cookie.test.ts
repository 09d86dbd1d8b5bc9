// The attribution cookie's reading, writing and deleting in a page (the wire form itself is
// tested in src/api/attribution-cookie.test.ts).
import { describe, expect, it } from 'vitest'
import { createCookieBrowser } from '../../test/support/cookies.ts'
import { refusal } from '../../test/support/errors.ts'
import { ConfigError } from '../shared/errors.ts'
import { attributionCookie, checkCookieDomain } from './attribution-cookie.ts'

const NOW = Date.UTC(2026, 2, 1, 12)
const DAY = 24 * 60 * 60 * 1000
const captured = {
  code: 'Abcd1234',
  visitorId: 'v_visitor_0001',
  capturedAt: new Date(NOW).toISOString(),
}

const jarOf = (get: () => string, writes: string[] = []) => ({
  get,
  set: (cookie: string) => {
    writes.push(cookie)
  },
})

describe('checkCookieDomain', () => {
  it.each([
    ['shop.test', 'https://www.shop.test/'],
    ['shop.test', 'https://shop.test/'],
    ['www.shop.test', 'https://www.shop.test/x?y=1'],
    ['shop.test', 'http://a.b.shop.test:8080/'],
  ])('accepts %s on %s', (domain, href) => {
    expect(() => checkCookieDomain(domain, href)).not.toThrow()
  })

  it.each([
    ['example.com', 'https://www.shop.test/', 'www.shop.test'],
    ['op.test', 'https://www.shop.test/', 'www.shop.test'],
    ['app.shop.test', 'https://www.shop.test/', 'www.shop.test'],
    ['shop.test', 'file:///home/page.html', 'none'],
  ])('refuses %s on %s, naming the domain and the host', (domain, href, host) => {
    const error = refusal(() => checkCookieDomain(domain, href))
    expect(error.option).toBe('cookieDomain')
    expect(error.message).toBe(
      `cookieDomain="${domain}" is refused: it is neither this page's host (${host}) nor a parent of it, so the browser would refuse the cookie.`,
    )
  })

  it('names an attribute and says it is ignored where the value came from one', () => {
    const error = refusal(() =>
      checkCookieDomain(
        'example.com',
        'https://www.shop.test/',
        'data-cookie-domain',
        'is ignored',
      ),
    )
    expect(error.option).toBe('data-cookie-domain')
    expect(error.message).toMatch(/^data-cookie-domain="example.com" is ignored: /)
  })
})

describe('attributionCookie', () => {
  it('writes the wire form (with the window, in days, and the rule) and the attributes, Secure on https, Max-Age the rest of the window', () => {
    const writes: string[] = []
    let now = NOW
    const cookie = attributionCookie('shop.test', {
      jar: jarOf(() => '', writes),
      href: 'https://www.shop.test/landing',
      now: () => now,
    })
    expect(cookie?.write(captured, 7 * DAY)).toBe(true)
    now += DAY // a day later, six are left
    cookie?.write(captured, 7 * DAY)
    expect(writes).toEqual([
      `referral_attribution=v2.Abcd1234.v_visitor_0001.${NOW.toString(36)}.7.l; Max-Age=604800; Domain=shop.test; Path=/; SameSite=Lax; Secure`,
      `referral_attribution=v2.Abcd1234.v_visitor_0001.${NOW.toString(36)}.7.l; Max-Age=518400; Domain=shop.test; Path=/; SameSite=Lax; Secure`,
    ])
  })

  it('on http: no Secure (the browser would drop the cookie); the first-touch rule carried', () => {
    const writes: string[] = []
    attributionCookie('shop.test', {
      jar: jarOf(() => '', writes),
      href: 'http://www.shop.test/',
      now: () => NOW,
      firstTouch: true,
    })?.write(captured, 30 * DAY)
    // 30 days is `u` in base 36; `f`: the site keeps the first referral.
    expect(writes).toEqual([
      `referral_attribution=v2.Abcd1234.v_visitor_0001.${NOW.toString(36)}.u.f; Max-Age=2592000; Domain=shop.test; Path=/; SameSite=Lax`,
    ])
  })

  it('writes nothing for an attribution whose window has passed, or one outside the contract', () => {
    const writes: string[] = []
    const cookie = attributionCookie('shop.test', {
      jar: jarOf(() => '', writes),
      href: 'https://www.shop.test/',
      now: () => NOW + 8 * DAY,
    })
    expect(cookie?.write(captured, 7 * DAY)).toBe(false)
    expect(cookie?.write({ ...captured, code: 'x;y' }, 30 * DAY)).toBe(false)
    expect(writes).toEqual([])
  })

  it('reads back what it wrote, through a browser cookie store', () => {
    const browser = createCookieBrowser()
    const www = attributionCookie('shop.test', {
      jar: browser.jar('www.shop.test'),
      href: 'https://www.shop.test/',
      now: () => Date.now(),
    })
    const app = attributionCookie('shop.test', {
      jar: browser.jar('app.shop.test'),
      href: 'https://app.shop.test/signup',
      now: () => Date.now(),
    })
    const fresh = { ...captured, capturedAt: new Date(Math.floor(Date.now())).toISOString() }
    www?.write(fresh, 30 * DAY)
    expect(app?.read()).toEqual(fresh)
    app?.remove()
    expect(www?.read()).toBeNull()
    expect(browser.cookies()).toEqual([])
  })

  it.each([
    ['a forged code', `referral_attribution=v1.<script>.v_visitor_0001.${NOW.toString(36)}`],
    ['another version', `referral_attribution=v2.Abcd1234.v_visitor_0001.${NOW.toString(36)}`],
    ['a part missing', 'referral_attribution=v1.Abcd1234.v_visitor_0001'],
    [
      'a capture a year old',
      `referral_attribution=v1.Abcd1234.v_visitor_0001.${(NOW - 400 * DAY).toString(36)}`,
    ],
    ['garbage', 'referral_attribution=%00%ff'],
    ['nothing', ''],
  ])('reads %s as no attribution', (_, header) => {
    const cookie = attributionCookie('shop.test', {
      jar: jarOf(() => `other=1; ${header}`),
      href: 'https://app.shop.test/',
      now: () => NOW,
    })
    expect(cookie?.read()).toBeNull()
  })

  it('a jar that throws (a sandboxed frame) reads nothing and writes nothing, without a throw', () => {
    const cookie = attributionCookie('shop.test', {
      jar: {
        get: () => {
          throw new DOMException('denied', 'SecurityError')
        },
        set: () => {
          throw new DOMException('denied', 'SecurityError')
        },
      },
      href: 'https://www.shop.test/',
      now: () => NOW,
    })
    expect(cookie?.read()).toBeNull()
    expect(cookie?.write(captured, DAY)).toBe(false)
    expect(() => cookie?.remove()).not.toThrow()
  })

  it('no page (server-side rendering): no cookie and no check; a page without a jar: checked, no cookie', () => {
    expect(
      attributionCookie('example.com', { jar: undefined, href: undefined, now: () => NOW }),
    ).toBeNull()
    expect(
      attributionCookie('shop.test', {
        jar: undefined,
        href: 'https://www.shop.test/',
        now: () => NOW,
      }),
    ).toBeNull()
    expect(() =>
      attributionCookie('example.com', {
        jar: undefined,
        href: 'https://www.shop.test/',
        now: () => NOW,
      }),
    ).toThrow(ConfigError)
  })
})
