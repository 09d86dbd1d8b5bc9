// @vitest-environment happy-dom
// <referral-widget> configured after it is on the page, or changed there: attributes set late
// mount the panel, changed ones re-render it, the messages property replaces the built-in texts,
// and the options that govern capture (clean-url, ref-param, consent) apply.
import { describe, expect, it, vi } from 'vitest'
import { settle } from '../test/support/dom.ts'
import {
  connect,
  count,
  createCampaign,
  element,
  part,
  referralErrors,
  useElementPage,
  world,
} from '../test/support/element-page.ts'
import { API } from '../test/support/harness.ts'

useElementPage()

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
