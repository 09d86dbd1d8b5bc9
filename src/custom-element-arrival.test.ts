// @vitest-environment happy-dom
// <referral-widget> and the visitor who arrives through a referral link: the banner and its
// dismissal, Global Privacy Control (honor-gpc), the site's attribution cookie (cookie-domain) and
// the hand-off to the site's other hosts (outbound), each refused whole when misconfigured.
import { describe, expect, it, vi } from 'vitest'
import { settle } from '../test/support/dom.ts'
import {
  connect,
  count,
  part,
  referralErrors,
  useElementPage,
  world,
} from '../test/support/element-page.ts'

useElementPage()

describe('<referral-widget>', () => {
  it('variant="banner" shows the banner to a visitor who arrived through a link', async () => {
    const code = await world.makeLink('alice')
    history.replaceState(null, '', `/pricing?ref=${code}&plan=pro`)
    const widget = connect({ variant: 'banner' })
    await settle()

    expect(part(widget, 'banner')?.querySelector('p')?.textContent).toBe(
      'A friend invited you: sign up and get $10 credit',
    )
    expect(part(widget, 'root')).toBeNull()
    // The code is captured and removed from the address bar; the rest of the URL stays.
    expect(location.pathname + location.search).toBe('/pricing?plan=pro')
    expect(Object.keys(localStorage).some((key) => key.startsWith('referral:test:'))).toBe(true)
  })

  it('honor-gpc: a visitor whose browser sends Global Privacy Control is not recorded', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    vi.stubGlobal(
      'navigator',
      Object.assign(Object.create(navigator), { globalPrivacyControl: true }),
    )
    const code = await world.makeLink('alice')
    history.replaceState(null, '', `/pricing?ref=${code}&plan=pro`)
    const widget = connect({ variant: 'banner', 'honor-gpc': 'true' })
    await settle()

    expect(part(widget, 'banner')).toBeNull()
    expect(count('/v1/events')).toBe(0)
    expect(location.pathname + location.search).toBe('/pricing?plan=pro')
    expect(Object.keys(localStorage).filter((key) => /:(attribution|clicks)$/.test(key))).toEqual(
      [],
    )
  })

  it('cookie-domain: the captured referral is also written to the site’s cookie', async () => {
    const code = await world.makeLink('alice')
    history.replaceState(null, '', `/?ref=${code}`)
    connect({ 'cookie-domain': location.hostname })
    await settle()
    expect(document.cookie).toMatch(new RegExp(`(^|; )referral_attribution=v2\\.${code}\\.`))
    // biome-ignore lint/suspicious/noDocumentCookie: the page's own cookie, cleared after the test
    document.cookie = `referral_attribution=; Max-Age=0; Path=/; Domain=${location.hostname}`
  })

  it('cookie-domain="auto": the cookie on the page’s own host (happy-dom’s localhost)', async () => {
    const code = await world.makeLink('alice')
    history.replaceState(null, '', `/?ref=${code}`)
    const widget = connect({ 'cookie-domain': 'auto' })
    await settle()
    expect(referralErrors()).toEqual([])
    expect(widget.shadowRoot).not.toBeNull()
    expect(document.cookie).toMatch(new RegExp(`(^|; )referral_attribution=v2\\.${code}\\.`))
    // biome-ignore lint/suspicious/noDocumentCookie: the page's own cookie, cleared after the test
    document.cookie = 'referral_attribution=; Max-Age=0; Path=/'
  })

  it('a cookie-domain that is not the page’s host or a parent: reported, no widget', async () => {
    const widget = connect({ 'cookie-domain': 'other.example' })
    await settle()
    expect(widget.shadowRoot).toBeNull()
    expect(referralErrors()).toEqual([
      `[referral] <referral-widget>: cookieDomain="other.example" is refused: it is neither this page's host (${location.hostname}) nor a parent of it, so the browser would refuse the cookie.`,
    ])
    expect(fetch).not.toHaveBeenCalled()
  })

  it('outbound: a link the visitor follows to that host carries the referral', async () => {
    const code = await world.makeLink('alice')
    history.replaceState(null, '', `/?ref=${code}`)
    connect({ outbound: 'app.other.test, *.example.org' })
    await settle()
    const link = document.createElement('a')
    link.href = 'https://app.other.test/signup'
    document.body.append(link)
    let followed: string | null = null
    link.addEventListener('click', () => {
      followed = link.getAttribute('href')
    })
    link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }))
    expect(followed).toMatch(
      new RegExp(`^https://app.other.test/signup\\?ref_handoff=h1\\.${code}\\.`),
    )
  })

  it('an outbound entry that is not a host name: reported, no widget', async () => {
    const widget = connect({ outbound: 'app.other.test, https://x.test' })
    await settle()
    expect(widget.shadowRoot).toBeNull()
    expect(referralErrors()).toEqual([
      '[referral] <referral-widget>: outbound="app.other.test, https://x.test" is refused: every entry must be a host name such as app.example.io, or *.example.org for its subdomains.',
    ])
    expect(fetch).not.toHaveBeenCalled()
  })

  it('variant="banner" without a referral shows nothing', async () => {
    const widget = connect({ variant: 'banner' })
    await settle()
    expect(part(widget, 'banner')).toBeNull()
  })

  it('the banner’s dismissal is remembered by a new element on the page', async () => {
    const code = await world.makeLink('alice')
    history.replaceState(null, '', `/?ref=${code}`)
    const first = connect({ variant: 'banner' })
    await settle()
    part(first, 'dismiss')?.click()
    await settle()
    expect(part(first, 'banner')).toBeNull()

    first.remove()
    await settle()
    const second = connect({ variant: 'banner' })
    await settle()
    expect(second.shadowRoot).not.toBeNull()
    expect(part(second, 'banner')).toBeNull()
  })
})
