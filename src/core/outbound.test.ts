// @vitest-environment happy-dom
// The outbound side of the hand-off: which hosts match, and which URLs are decorated and how.
// Links followed in a page: outbound-links.test.ts; a page that broke the DOM's prototypes:
// outbound-hostile.test.ts.
import { describe, expect, it } from 'vitest'
import { HANDOFF, links, useOutboundPage } from '../../test/support/outbound-page.ts'
import { HANDOFF_PARAM } from '../api/handoff.ts'
import { isOutboundHost } from './outbound.ts'

useOutboundPage()

describe('isOutboundHost', () => {
  const hosts = ['app.example.io', '*.example.org']
  it.each([
    ['app.example.io', true],
    ['a.example.org', true],
    ['b.a.example.org', true], // any depth, as a CSP host source
    ['example.org', false], // the domain itself is not one of its subdomains
    ['www.app.example.io', false], // no wildcard: exactly that host
    ['example.io', false],
    ['badexample.org', false],
    ['a.example.org.evil.test', false],
    ['evil.test', false],
    ['', false],
  ])('%s: %s', (hostname, expected) => {
    expect(isOutboundHost(hostname, hosts)).toBe(expected)
  })

  it('the page’s own host matches only when named exactly, not through a wildcard', () => {
    expect(isOutboundHost('www.example.org', hosts, 'www.example.org')).toBe(false)
    expect(isOutboundHost('app.example.org', hosts, 'www.example.org')).toBe(true)
    expect(isOutboundHost('app.example.io', hosts, 'app.example.io')).toBe(true)
  })
})

describe('decorate', () => {
  it('a URL to an outbound host gains ref_handoff with the held attribution and the time now', () => {
    expect(links().decorate('https://app.other.test/signup')).toBe(
      `https://app.other.test/signup?${HANDOFF_PARAM}=${HANDOFF}`,
    )
    // Any port, either scheme: the host name is what is listed.
    expect(links().decorate('http://app.other.test:8080/')).toBe(
      `http://app.other.test:8080/?${HANDOFF_PARAM}=${HANDOFF}`,
    )
  })

  it('the URL’s own parameters and fragment stay exactly as written', () => {
    const url = 'https://shop.example.org/a?q=a%20b&x=1+2&empty=#frag?x'
    expect(links().decorate(url)).toBe(
      `https://shop.example.org/a?q=a%20b&x=1+2&empty=&${HANDOFF_PARAM}=${HANDOFF}#frag?x`,
    )
    expect(links().decorate('https://app.other.test/?')).toBe(
      `https://app.other.test/?${HANDOFF_PARAM}=${HANDOFF}`,
    )
  })

  it('one that already carries ref_handoff (a stale one) gets this one instead, once', () => {
    const stale = `https://app.other.test/?a=1&${HANDOFF_PARAM}=h1.old.value&b=2`
    expect(links().decorate(stale)).toBe(
      `https://app.other.test/?a=1&b=2&${HANDOFF_PARAM}=${HANDOFF}`,
    )
  })

  it.each([
    ['another host', 'https://elsewhere.test/signup'],
    ['the domain of a *. entry', 'https://example.org/'],
    ['the page’s own host', 'https://www.shop.test/pricing'],
    ['a relative URL (this page’s host)', '/pricing'],
    ['mailto:', 'mailto:someone@app.other.test'],
    ['javascript:', 'javascript:location="https://app.other.test/"'],
    ['ftp:', 'ftp://app.other.test/file'],
    ['not a URL', 'http://[broken'],
  ])('%s: unchanged', (_, url) => {
    expect(links().decorate(url)).toBe(url)
  })

  it('no attribution to hand off (none, no consent, GPC: held gives null): unchanged', () => {
    const url = 'https://app.other.test/signup'
    expect(links({ held: () => null }).decorate(url)).toBe(url)
  })

  it('a relative URL resolves against the page, decorated where the page’s host is listed', () => {
    const own = links({ hosts: ['www.shop.test'] })
    expect(own.decorate('/pricing?x=1')).toBe(
      `https://www.shop.test/pricing?x=1&${HANDOFF_PARAM}=${HANDOFF}`,
    )
  })

  it('anything but a non-empty string comes back unchanged, even where the page’s host is listed', () => {
    const own = links({ hosts: ['www.shop.test'] })
    for (const odd of [null, undefined, '', 123, {}, ['/x']]) {
      expect(own.decorate(odd as never)).toBe(odd)
    }
  })

  it('after stop(): unchanged', () => {
    const outbound = links()
    outbound.stop()
    expect(outbound.decorate('https://app.other.test/')).toBe('https://app.other.test/')
  })
})
