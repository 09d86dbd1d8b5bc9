// @vitest-environment happy-dom
// The outbound side of the hand-off: which hosts match, which URLs are decorated and how, and
// links followed in a page (left, middle, keyboard; added later; in a shadow root), each given
// back its own address once the browser has taken the decorated one. Nothing thrown into a page
// that broke the DOM's prototypes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { encodeHandoff, HANDOFF_PARAM } from '../api/handoff.ts'
import { globalTimers } from '../shared/timers.ts'
import { browserHost, type Host } from './host.ts'
import { isOutboundHost, type OutboundOptions, outboundLinks } from './outbound.ts'
import type { Attribution } from './stores.ts'

const NOW = Date.UTC(2026, 2, 1, 12)
const CAPTURED = NOW - 60 * 60 * 1000
const held: Attribution = {
  code: 'AbC123xy',
  visitorId: 'v_Q2r8kLm0Zt5XwY7pHn3b',
  capturedAt: new Date(CAPTURED).toISOString(),
}
const HANDOFF = encodeHandoff({ ...held, capturedAt: CAPTURED, handoffAt: NOW }) ?? ''
const PAGE = 'https://www.shop.test/landing'

const started: Array<{ stop(): void }> = []

function links(overrides: Partial<OutboundOptions> = {}) {
  const outbound = outboundLinks({
    hosts: ['app.other.test', '*.example.org'],
    held: () => held,
    now: () => Date.now(),
    host: { ...browserHost, href: () => PAGE },
    timers: globalTimers,
    ...overrides,
  })
  started.push(outbound)
  return outbound
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW })
})
afterEach(() => {
  for (const outbound of started.splice(0)) outbound.stop()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

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

  it('after stop(): unchanged', () => {
    const outbound = links()
    outbound.stop()
    expect(outbound.decorate('https://app.other.test/')).toBe('https://app.other.test/')
  })
})

/** A link in the page, or in `parent`. */
function link(href: string, parent: ParentNode = document.body) {
  const a = document.createElement('a')
  a.setAttribute('href', href)
  a.textContent = 'Go'
  parent.append(a)
  return a
}

/**
 * The href a link has while a click on it (or on `target` inside it) is dispatched: what the
 * browser navigates to.
 */
function hrefDuring(a: Element, event: Event, target: Element = a): string | null {
  let seen: string | null = null
  const listener = () => {
    seen = a.getAttribute('href')
  }
  a.addEventListener(event.type, listener)
  target.dispatchEvent(event)
  a.removeEventListener(event.type, listener)
  return seen
}

const click = () => new MouseEvent('click', { bubbles: true, cancelable: true, composed: true })
const auxclick = (button: number) =>
  new MouseEvent('auxclick', { bubbles: true, cancelable: true, composed: true, button })
const decorated = (url: string) =>
  `${url}${url.includes('?') ? '&' : '?'}${HANDOFF_PARAM}=${HANDOFF}`

describe('links followed in the page', () => {
  it('a left click (and Enter, which clicks): decorated while dispatched, its own address after', async () => {
    const outbound = links()
    const a = link('https://app.other.test/signup?plan=pro')
    expect(hrefDuring(a, click())).toBe(decorated('https://app.other.test/signup?plan=pro'))
    expect(a.getAttribute('href')).toBe(decorated('https://app.other.test/signup?plan=pro'))
    await vi.advanceTimersByTimeAsync(0)
    expect(a.getAttribute('href')).toBe('https://app.other.test/signup?plan=pro')
    outbound.stop()
  })

  it('the time is the click’s: a link followed again later carries a new hand-off time', async () => {
    const outbound = links()
    const a = link('https://app.other.test/')
    expect(hrefDuring(a, click())).toContain(`.${NOW.toString(36)}`)
    await vi.advanceTimersByTimeAsync(40 * 60 * 1000)
    expect(hrefDuring(a, click())).toContain(`.${(NOW + 40 * 60 * 1000).toString(36)}`)
    outbound.stop()
  })

  it('the middle button (auxclick 1) is decorated; the right one (auxclick 2) is not', () => {
    const outbound = links()
    const a = link('https://app.other.test/')
    expect(hrefDuring(a, auxclick(1))).toBe(decorated('https://app.other.test/'))
    outbound.stop()
    const again = links()
    const b = link('https://app.other.test/b')
    expect(hrefDuring(b, auxclick(2))).toBe('https://app.other.test/b')
    again.stop()
  })

  it('a click on an element inside the link, a link added after load, a link in a shadow root', () => {
    const outbound = links()
    const a = link('https://app.other.test/inner')
    const inner = document.createElement('span')
    a.append(inner)
    expect(hrefDuring(a, click(), inner)).toBe(decorated('https://app.other.test/inner'))
    const host = document.createElement('div')
    document.body.append(host)
    const shadowed = link('https://sub.example.org/x', host.attachShadow({ mode: 'open' }))
    expect(hrefDuring(shadowed, click())).toBe(decorated('https://sub.example.org/x'))
    outbound.stop()
  })

  it('links left alone: another host, a download, no href, an SVG link, a click outside links', () => {
    const outbound = links()
    const other = link('https://elsewhere.test/')
    expect(hrefDuring(other, click())).toBe('https://elsewhere.test/')
    const download = link('https://app.other.test/file.pdf')
    download.setAttribute('download', '')
    expect(hrefDuring(download, click())).toBe('https://app.other.test/file.pdf')
    const anchor = document.createElement('a')
    document.body.append(anchor)
    expect(hrefDuring(anchor, click())).toBeNull()
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
    const svgLink = document.createElementNS('http://www.w3.org/2000/svg', 'a')
    svgLink.setAttribute('href', 'https://app.other.test/')
    svg.append(svgLink)
    document.body.append(svg)
    expect(hrefDuring(svgLink, click())).toBe('https://app.other.test/')
    expect(() => document.body.dispatchEvent(click())).not.toThrow()
    outbound.stop()
  })

  it('stop(): no longer listening, and a link still decorated gets its own address back', () => {
    const outbound = links()
    const a = link('https://app.other.test/')
    a.dispatchEvent(click())
    expect(a.getAttribute('href')).toBe(decorated('https://app.other.test/'))
    outbound.stop()
    expect(a.getAttribute('href')).toBe('https://app.other.test/')
    expect(hrefDuring(a, click())).toBe('https://app.other.test/')
  })

  it('two widgets on the page: the first that has something to hand off does; the link comes back whole', async () => {
    const none = links({ held: () => null })
    const first = links()
    const second = links({ held: () => ({ ...held, code: 'Other1234' }) })
    const a = link('https://app.other.test/')
    expect(hrefDuring(a, click())).toBe(decorated('https://app.other.test/'))
    await vi.advanceTimersByTimeAsync(0)
    expect(a.getAttribute('href')).toBe('https://app.other.test/')
    for (const outbound of [none, first, second]) outbound.stop()
  })

  it('a link the page changed meanwhile keeps the page’s address', async () => {
    const outbound = links()
    const a = link('https://app.other.test/')
    a.dispatchEvent(click())
    a.setAttribute('href', 'https://app.other.test/changed')
    await vi.advanceTimersByTimeAsync(0)
    expect(a.getAttribute('href')).toBe('https://app.other.test/changed')
    outbound.stop()
  })
})

describe('a hostile page', () => {
  /** The listener itself, as the window would call it. */
  function listener() {
    const heard: Record<string, (event: Event) => void> = {}
    const host: Pick<Host, 'href' | 'listen'> = {
      href: () => PAGE,
      listen: (name, fn) => {
        heard[name] = fn
        return () => {}
      },
    }
    links({ host })
    return (event: Event) => heard[event.type]?.(event)
  }

  it.each([
    [
      'composedPath throws',
      () => ({
        type: 'click',
        composedPath: () => {
          throw new Error('no')
        },
      }),
    ],
    ['composedPath is missing', () => ({ type: 'click' })],
    ['a path of odd things', () => ({ type: 'click', composedPath: () => [null, 1, 'a', {}] })],
    [
      'a link whose getAttribute throws',
      () => ({
        type: 'click',
        composedPath: () => [
          {
            localName: 'a',
            href: 'https://app.other.test/',
            hasAttribute: () => true,
            getAttribute: () => {
              throw new Error('no')
            },
          },
        ],
      }),
    ],
    [
      'a link whose setAttribute throws',
      () => ({
        type: 'click',
        composedPath: () => [
          {
            localName: 'a',
            href: 'https://app.other.test/',
            hasAttribute: (name: string) => name === 'href',
            getAttribute: () => 'https://app.other.test/',
            setAttribute: () => {
              throw new Error('no')
            },
          },
        ],
      }),
    ],
  ])('%s: nothing thrown', (_, event) => {
    const follow = listener()
    expect(() => follow(event() as unknown as Event)).not.toThrow()
  })

  it('Element.prototype.closest and Array.prototype.find replaced: links still decorated', () => {
    vi.spyOn(Element.prototype, 'closest').mockImplementation(() => {
      throw new Error('the page replaced closest')
    })
    vi.spyOn(Array.prototype, 'find').mockImplementation(() => {
      throw new Error('the page replaced find')
    })
    const outbound = links()
    const a = link('https://app.other.test/')
    expect(hrefDuring(a, click())).toBe(decorated('https://app.other.test/'))
    outbound.stop()
    vi.restoreAllMocks()
  })

  it('a URL class the page replaced: decorate gives the URL back unchanged, never throws', () => {
    vi.stubGlobal(
      'URL',
      class {
        constructor() {
          throw new TypeError('the page replaced URL')
        }
      },
    )
    expect(links().decorate('https://app.other.test/')).toBe('https://app.other.test/')
    vi.stubGlobal(
      'URL',
      class {
        href = undefined
        protocol = 'https:'
        hostname = 'app.other.test'
      },
    )
    expect(links().decorate('https://app.other.test/')).toBe('https://app.other.test/')
  })

  it('decorate given something that is not a string: it comes back as it was', () => {
    const outbound = links()
    for (const value of [
      undefined,
      null,
      42,
      {
        toString: () => {
          throw new Error('no')
        },
      },
    ])
      expect(outbound.decorate(value as unknown as string)).toBe(value)
  })
})
