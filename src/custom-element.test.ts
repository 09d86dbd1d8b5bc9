// @vitest-environment happy-dom
// <referral-widget> for pages built with another framework (WIDGET.md section 2): the element is
// defined by its module, observes the documented attributes, renders the panel in its shadow root
// through the page's fetch (with the user's link, the campaign, locale and theme it is given), and
// refuses a secret key, a missing key or service, a javascript: URL or an invalid user id without
// rendering or sending anything. The visitor who arrives through a link, the element on and off
// the page, and configuration that changes later: custom-element-*.test.ts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { settle } from '../test/support/dom.ts'
import {
  connect,
  count,
  createCampaign,
  part,
  referralErrors,
  useElementPage,
  world,
} from '../test/support/element-page.ts'
import { API } from '../test/support/harness.ts'
import { OPTION_ATTRIBUTES } from './core/options.ts'
import { ReferralWidgetElement } from './custom-element.ts'

useElementPage()

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
      [...names, 'variant', 'share-utm', 'open'].sort(),
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
