// @vitest-environment happy-dom
// The outbound side of the hand-off in a page: links followed there (left, middle, keyboard;
// added later; in a shadow root) are decorated while the click is dispatched, each given back its
// own address once the browser has taken the decorated one.
import { describe, expect, it, vi } from 'vitest'
import {
  auxclick,
  click,
  decorated,
  held,
  hrefDuring,
  link,
  links,
  NOW,
  PAGE,
  useOutboundPage,
} from '../../test/support/outbound-page.ts'
import { HANDOFF_PARAM } from '../api/handoff.ts'

useOutboundPage()

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

describe('a referral waiting for consent (carried)', () => {
  const carriedOf = (url: string) =>
    decorated(url).replace(`${HANDOFF_PARAM}=h1.`, `${HANDOFF_PARAM}=c1.`)

  it("links to the page's own origin carry it too, as c1: left, middle and keyboard, added later", () => {
    let waiting = true
    const outbound = links({ carried: () => waiting })
    const own = `${new URL(PAGE).origin}/pricing`
    const a = link(own)
    expect(hrefDuring(a, click())).toBe(carriedOf(own))
    expect(hrefDuring(link(`${own}?later=1`), auxclick(1))).toBe(carriedOf(`${own}?later=1`))
    expect(hrefDuring(link('https://app.other.test/'), click())).toBe(
      carriedOf('https://app.other.test/'),
    )
    expect(hrefDuring(link('https://elsewhere.test/'), click())).toBe('https://elsewhere.test/')
    // Answered: its own origin no more, the outbound host as an ordinary hand-off.
    waiting = false
    expect(hrefDuring(link(`${own}?after=1`), click())).toBe(`${own}?after=1`)
    expect(hrefDuring(link('https://app.other.test/x'), click())).toBe(
      decorated('https://app.other.test/x'),
    )
    outbound.stop()
  })
})
