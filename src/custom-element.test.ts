// @vitest-environment happy-dom
// <referral-widget> for pages built with another framework (WIDGET.md section 2): the element
// reads its attributes, renders the panel (or the banner) in its shadow root, uses the page's
// fetch and localStorage, and refuses a secret key without sending anything.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { settle } from '../test/support/dom.ts'
import { API, createWorld } from '../test/support/harness.ts'
import { OPTION_ATTRIBUTES } from './core/options.ts'
import { ReferralWidgetElement } from './custom-element.ts'
import { resetWarnings } from './shared/log.ts'

const START = Date.UTC(2026, 0, 15, 12)
const MINUTE = 60 * 1000

type World = ReturnType<typeof createWorld>

let world: World
let errorSpy: MockInstance<typeof console.error>

beforeEach(() => {
  vi.useFakeTimers({ now: START })
  resetWarnings()
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {})
  world = createWorld()
  vi.stubGlobal('fetch', vi.fn(world.fetch))
  localStorage.clear()
  history.replaceState(null, '', '/')
})

afterEach(async () => {
  document.body.replaceChildren() // disconnects every element: their cores are released
  // Preact's effects wait for the next frame on a module-level queue: let it run on the fake
  // timers that hold it, or later tests' effects never run.
  await vi.advanceTimersByTimeAsync(100)
  localStorage.clear()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

// --- helpers ---------------------------------------------------------------------------------

function element(attributes: Record<string, string>): ReferralWidgetElement {
  const widget = document.createElement('referral-widget')
  for (const [name, value] of Object.entries(attributes)) widget.setAttribute(name, value)
  return widget
}

/** Puts an element on the page, as a page's own markup or framework would. */
function connect(attributes: Record<string, string>): ReferralWidgetElement {
  const widget = element({ 'public-key': 'pk_test_acme', 'api-base': API, ...attributes })
  document.body.append(widget)
  return widget
}

const part = (host: Element, name: string) =>
  host.shadowRoot?.querySelector<HTMLElement>(`[data-part="${name}"]`) ?? null

const count = (prefix: string) =>
  world.sent.filter((request) => request.path.startsWith(prefix)).length

const referralErrors = () =>
  errorSpy.mock.calls.map((call) => String(call[0])).filter((text) => text.startsWith('[referral]'))

async function createCampaign(referrer: number, referred: number, currency: string) {
  const response = await world.service.app.request('/v1/campaigns', {
    method: 'POST',
    headers: { Authorization: 'Bearer sk_test_acme', 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Element campaign',
      rewardTrigger: 'signup',
      referrerReward: { type: 'credit', amount: referrer, currency },
      referredReward: { type: 'credit', amount: referred, currency },
    }),
  })
  return ((await response.json()) as { id: string }).id
}

// --- tests -----------------------------------------------------------------------------------

describe('<referral-widget>', () => {
  it('is defined by importing the module', () => {
    expect(customElements.get('referral-widget')).toBeDefined()
  })

  it('observes every attribute docs/COMPONENTS.md lists for it, and the page lists every one', () => {
    const page = readFileSync(join(import.meta.dirname, '../docs/COMPONENTS.md'), 'utf8')
    const section = page.slice(page.indexOf('## The custom element'), page.indexOf('## Vue'))
    const listed = Array.from(section.matchAll(/^\| `([a-z-]+)` \|/gm), (match) => match[1])
    expect([...listed].sort()).toEqual([...ReferralWidgetElement.observedAttributes].sort())
  })

  it('observes, for each option, the attribute the options table names for the element', () => {
    const names = Object.values(OPTION_ATTRIBUTES).map(({ element }) => element)
    expect([...ReferralWidgetElement.observedAttributes].sort()).toEqual(
      [...names, 'variant', 'share-utm'].sort(),
    )
  })

  it('renders the panel in an open shadow root, through the page’s fetch', async () => {
    const widget = connect({})
    await settle()

    expect(widget.shadowRoot?.mode).toBe('open')
    expect(part(widget, 'root')?.getAttribute('data-state')).toBe('ready')
    expect(part(widget, 'headline')?.textContent).toBe('Give $10, get $10')
    expect(part(widget, 'test-badge')?.textContent).toBe('Test mode')
    expect(fetch).toHaveBeenCalled()
    expect(count('/v1/campaigns')).toBe(1)
  })

  it('a bad theme or locale attribute is reported and left out; the panel still shows', async () => {
    const widget = connect({ theme: 'neon', locale: 'not a locale!' })
    await settle()
    expect(part(widget, 'root')?.getAttribute('data-state')).toBe('ready')
    expect(part(widget, 'root')?.getAttribute('data-theme')).toBe('auto')
    expect(referralErrors()).toEqual([
      '[referral] <referral-widget>: theme="neon" is ignored: use light, dark or auto.',
      '[referral] <referral-widget>: locale="not a locale!" is ignored: it must be a language tag such as en-US.',
    ])
  })

  it('says so in the status region when the link cannot be made', async () => {
    const widget = connect({ 'user-id': 'ivan' }) // the campaign request leaves at once
    world.faults.push({ kind: 'status', status: 500 }) // and the link request meets this
    await settle()
    // The campaign came first; the link request met the 500.
    expect(part(widget, 'root')?.getAttribute('data-state')).toBe('ready')
    expect(part(widget, 'status')?.textContent).toBe(
      'Referral rewards are not available right now.',
    )
    expect(part(widget, 'link')).toBeNull()
  })

  it('user-id gives that user’s link on this site', async () => {
    const widget = connect({ 'user-id': 'alice' })
    await settle()
    const code = await world.makeLink('alice')
    expect((part(widget, 'link') as HTMLInputElement | null)?.value).toBe(
      `${location.origin}/?ref=${code}`,
    )
  })

  it('landing-url sets where share links point', async () => {
    const widget = connect({ 'user-id': 'alice', 'landing-url': 'https://shop.example/join' })
    await settle()
    expect((part(widget, 'link') as HTMLInputElement | null)?.value).toBe(
      `https://shop.example/join?ref=${await world.makeLink('alice')}`,
    )
  })

  it('changing user-id switches the link; removing it asks the visitor to sign in', async () => {
    const widget = connect({ 'user-id': 'alice' })
    await settle()

    widget.setAttribute('user-id', 'bob')
    await settle()
    expect((part(widget, 'link') as HTMLInputElement | null)?.value).toBe(
      `${location.origin}/?ref=${await world.makeLink('bob')}`,
    )

    widget.removeAttribute('user-id')
    await settle()
    expect(part(widget, 'link')).toBeNull()
    expect(part(widget, 'sign-in')?.textContent).toBe('Sign in to get your referral link.')
  })

  it('campaign-id and locale: that campaign’s amounts, formatted for the locale', async () => {
    const campaignId = await createCampaign(1000, 500, 'JPY')
    const widget = connect({ 'campaign-id': campaignId, locale: 'ja-JP' })
    await settle()
    expect(part(widget, 'headline')?.textContent).toBe('友だちに￥500、あなたに￥1,000')
  })

  it('an Arabic locale reads right to left', async () => {
    const widget = connect({ locale: 'ar' })
    await settle()
    expect(part(widget, 'root')?.getAttribute('dir')).toBe('rtl')
  })

  it.each(['light', 'dark', 'auto'])('theme="%s" reaches the panel', async (theme) => {
    const widget = connect({ theme })
    await settle()
    expect(part(widget, 'root')?.getAttribute('data-theme')).toBe(theme)
  })

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
    expect(document.cookie).toMatch(new RegExp(`(^|; )referral_attribution=v1\\.${code}\\.`))
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
    expect(document.cookie).toMatch(new RegExp(`(^|; )referral_attribution=v1\\.${code}\\.`))
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

  it('two elements with the same key share one core: one campaign request', async () => {
    const a = connect({})
    const b = connect({})
    await settle()
    expect(part(a, 'root')?.getAttribute('data-state')).toBe('ready')
    expect(part(b, 'root')?.getAttribute('data-state')).toBe('ready')
    expect(count('/v1/campaigns')).toBe(1)
  })

  describe('removing the element', () => {
    // The events endpoint is down: a widget that lives keeps retrying the visitor's click.
    async function withQueuedClick() {
      vi.stubGlobal(
        'fetch',
        vi.fn((input: string, init: RequestInit) => {
          if (new URL(input).pathname !== '/v1/events') return world.fetch(input, init)
          world.sent.push({ path: '/v1/events', method: 'POST', eventIds: [], status: 503 })
          return Promise.resolve(new Response('{}', { status: 503 }))
        }),
      )
      history.replaceState(null, '', `/?ref=${await world.makeLink('alice')}`)
      const widget = connect({})
      await settle()
      expect(count('/v1/events')).toBeGreaterThan(0)
      return widget
    }

    it('while it is on the page, the widget keeps retrying', async () => {
      await withQueuedClick()
      const before = count('/v1/events')
      await vi.advanceTimersByTimeAsync(10 * MINUTE)
      expect(count('/v1/events')).toBeGreaterThan(before)
    })

    it('removes the panel and stops the widget: no more requests', async () => {
      const widget = await withQueuedClick()
      widget.remove()
      await settle()
      expect(part(widget, 'root')).toBeNull()

      const before = world.sent.length
      await vi.advanceTimersByTimeAsync(60 * MINUTE)
      expect(world.sent.length).toBe(before)
    })

    it('putting it back starts again: a fresh campaign request, the panel again', async () => {
      const widget = connect({})
      await settle()
      widget.remove()
      await settle()
      document.body.append(widget)
      await settle()
      expect(count('/v1/campaigns')).toBe(2)
      expect(part(widget, 'root')?.getAttribute('data-state')).toBe('ready')
    })
  })
})

describe('refused configurations render nothing and send nothing', () => {
  it.each(['sk_test_acme', 'sk_live_acme'])('a secret key (%s)', async (key) => {
    const widget = connect({ 'public-key': key, 'user-id': 'alice' })
    await settle()

    expect(widget.shadowRoot).toBeNull()
    expect(fetch).not.toHaveBeenCalled()
    expect(world.sent).toEqual([])
    const errors = referralErrors()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^\[referral\] <referral-widget>: .*must never reach a browser/)
    expect(Object.keys(localStorage)).toEqual([])
  })

  it('no public-key', async () => {
    const widget = document.createElement('referral-widget')
    widget.setAttribute('api-base', API)
    document.body.append(widget)
    await settle()

    expect(widget.shadowRoot).toBeNull()
    expect(fetch).not.toHaveBeenCalled()
    expect(referralErrors()[0]).toMatch(/public key is required/)
  })

  it('no api-base', async () => {
    const widget = document.createElement('referral-widget')
    widget.setAttribute('public-key', 'pk_test_acme')
    document.body.append(widget)
    await settle()

    expect(widget.shadowRoot).toBeNull()
    expect(fetch).not.toHaveBeenCalled()
    expect(referralErrors()[0]).toMatch(/apiBase is required/)
  })

  it('a javascript: api-base', async () => {
    const widget = connect({ 'api-base': 'javascript:alert(1)' })
    await settle()
    expect(widget.shadowRoot).toBeNull()
    expect(fetch).not.toHaveBeenCalled()
  })

  it('a javascript: landing-url: refused, never an href', async () => {
    const widget = connect({ 'user-id': 'alice', 'landing-url': 'javascript:alert(1)' })
    await settle()
    expect(widget.shadowRoot).toBeNull()
    expect(referralErrors()[0]).toMatch(
      /landingUrl="javascript:[^"]*" is refused: it must be an absolute http: or https: URL/,
    )
    const hrefs = Array.from(
      widget.shadowRoot?.querySelectorAll('[href]') ?? [],
      (anchor) => anchor.getAttribute('href') ?? '',
    )
    for (const href of hrefs) expect(href).toMatch(/^(https?:|mailto:)/)
    expect(part(widget, 'link')).toBeNull()
  })

  it('a user-id changed to an invalid value is reported, not thrown', async () => {
    const widget = connect({ 'user-id': 'alice' })
    await settle()
    expect(() => widget.setAttribute('user-id', 'alice smith')).not.toThrow()
    await settle()
    expect(referralErrors().some((text) => /userId="alice smith" is refused/.test(text))).toBe(true)
  })
})

describe('configuration that arrives or changes after the element is on the page', () => {
  it('key and service set 300 ms after insertion: the panel mounts', async () => {
    const widget = document.createElement('referral-widget')
    document.body.append(widget)
    await vi.advanceTimersByTimeAsync(300)
    expect(widget.shadowRoot).toBeNull()
    // Not configured yet is not an error.
    expect(referralErrors()).toEqual([])

    widget.setAttribute('public-key', 'pk_test_acme')
    widget.setAttribute('api-base', API)
    widget.setAttribute('user-id', 'alice')
    await settle()
    expect(part(widget, 'root')?.getAttribute('data-state')).toBe('ready')
    expect((part(widget, 'link') as HTMLInputElement | null)?.value).toContain(
      `?ref=${await world.makeLink('alice')}`,
    )
    // Attributes set together are applied together: one core, one campaign request.
    expect(count('/v1/campaigns')).toBe(1)
  })

  it('a changed theme or locale re-renders the panel without a new campaign request', async () => {
    const widget = connect({ theme: 'light' })
    await settle()
    widget.setAttribute('theme', 'dark')
    await settle()
    expect(part(widget, 'root')?.getAttribute('data-theme')).toBe('dark')
    widget.setAttribute('locale', 'ar')
    await settle()
    expect(part(widget, 'root')?.getAttribute('dir')).toBe('rtl')
    expect(widget.shadowRoot?.querySelectorAll('[data-part="root"]')).toHaveLength(1)
    expect(count('/v1/campaigns')).toBe(1)
  })

  it('a changed campaign-id shows that campaign', async () => {
    const campaignId = await createCampaign(1000, 500, 'JPY')
    const widget = connect({ locale: 'ja-JP' })
    await settle()
    widget.setAttribute('campaign-id', campaignId)
    await settle()
    expect(part(widget, 'headline')?.textContent).toBe('友だちに￥500、あなたに￥1,000')
  })

  it('a changed public-key shows the other organization’s campaign', async () => {
    const widget = connect({})
    await settle()
    expect(part(widget, 'headline')?.textContent).toBe('Give $10, get $10')
    widget.setAttribute('public-key', 'pk_test_globex')
    await settle()
    expect(part(widget, 'headline')?.textContent).not.toBe('Give $10, get $10')
    expect(part(widget, 'root')?.getAttribute('data-state')).toBe('ready')
  })

  it('variant switches between the panel and the banner', async () => {
    const code = await world.makeLink('alice')
    history.replaceState(null, '', `/?ref=${code}`)
    const widget = connect({})
    await settle()
    expect(part(widget, 'root')).not.toBeNull()
    widget.setAttribute('variant', 'banner')
    await settle()
    expect(part(widget, 'root')).toBeNull()
    expect(part(widget, 'banner')).not.toBeNull()
  })

  it('the messages property, set before or after connection, replaces built-in messages', async () => {
    const before = element({ 'public-key': 'pk_test_acme', 'api-base': API })
    before.messages = { signIn: 'Bitte erst anmelden' }
    document.body.append(before)
    await settle()
    expect(part(before, 'sign-in')?.textContent).toBe('Bitte erst anmelden')

    before.messages = { signIn: 'Connectez-vous' }
    await settle()
    expect(part(before, 'sign-in')?.textContent).toBe('Connectez-vous')
    before.messages = undefined
    await settle()
    expect(part(before, 'sign-in')?.textContent).toBe('Sign in to get your referral link.')
  })

  it('share-utm="true" tags each channel\'s link with its utm_source; removing it untags them', async () => {
    const widget = connect({ 'user-id': 'alice', 'share-utm': 'true' })
    await settle()
    const xLink = () =>
      new URL(
        new URL(
          part(widget, 'share')?.querySelector('a[data-network="x"]')?.getAttribute('href') ?? '',
        ).searchParams
          .get('text')
          ?.split(' ')
          .at(-1) ?? '',
      )
    expect(xLink().searchParams.get('utm_source')).toBe('x')
    expect(xLink().searchParams.get('utm_medium')).toBe('referral')
    widget.removeAttribute('share-utm')
    await settle()
    expect(xLink().searchParams.has('utm_source')).toBe(false)
    widget.setAttribute('share-utm', 'yes')
    await settle()
    expect(referralErrors()).toContain(
      '[referral] <referral-widget>: share-utm="yes" is ignored: it must be true or false.',
    )
    expect(xLink().searchParams.has('utm_source')).toBe(false)
  })

  it('clean-url="false" leaves the referral parameter in the address bar', async () => {
    const code = await world.makeLink('alice')
    history.replaceState(null, '', `/pricing?ref=${code}`)
    connect({ 'clean-url': 'false' })
    await settle()
    expect(location.search).toBe(`?ref=${code}`)
    expect(count('/v1/events')).toBe(1)
  })

  it('ref-param names the parameter that carries the code', async () => {
    const code = await world.makeLink('alice')
    history.replaceState(null, '', `/?via=${code}`)
    connect({ 'ref-param': 'via' })
    await settle()
    expect(count('/v1/events')).toBe(1)
    expect(location.search).toBe('')
  })

  it('consent="required": nothing stored or sent for a visitor with a code', async () => {
    const code = await world.makeLink('alice')
    history.replaceState(null, '', `/?ref=${code}`)
    connect({ consent: 'required' })
    await settle()
    expect(count('/v1/events')).toBe(0)
    expect(Object.keys(localStorage)).toEqual([])
  })
})
