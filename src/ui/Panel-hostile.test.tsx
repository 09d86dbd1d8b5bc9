// @vitest-environment happy-dom
// The referrer's panel with hostile strings (WIDGET.md section 3): markup in a campaign name or a
// message stays text, and no link URL but http(s) or the composed mailto reaches an href or the
// input. The panel runs against the in-process reference service (test/support/harness.ts) with
// fake time, or renders from stores set by hand.
import { render } from '@testing-library/preact'
import { describe, expect, it } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import {
  copyButton,
  createCampaign,
  EN,
  HOSTILE,
  hrefs,
  linkInput,
  mountPanelHost as mount,
  open,
  readyPanel,
  rootOf,
  shadow,
  text,
  useUiWorld,
} from '../../test/support/ui-world.ts'
import { createStores } from '../core/stores.ts'
import { Panel, type UiSettings } from './Panel.tsx'

useUiWorld()

// --- hostile strings -------------------------------------------------------------------------

describe('hostile strings', () => {
  it('a campaign name with markup renders as text, never as an element', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      name: HOSTILE,
      referrer: { amount: 10, currency: 'USD' },
      referred: { amount: 10, currency: 'USD' },
    })
    const { host } = await readyPanel({ campaignId })

    expect(rootOf(host).getAttribute('data-state')).toBe('ready')
    expect(rootOf(host).getAttribute('aria-label')).toBe(HOSTILE)
    expect(shadow(host).querySelector('img')).toBeNull()
    expect(shadow(host).querySelector('[onerror]')).toBeNull()
  })

  it('a message override with markup renders as text', async () => {
    const { host } = await readyPanel(
      {},
      { messages: { copy: HOSTILE, headline: `${HOSTILE}{give}` } },
    )
    expect(copyButton(host).textContent).toBe(HOSTILE)
    expect(text(host, 'headline')).toBe(`${HOSTILE}$10`)
    expect(shadow(host).querySelector('img')).toBeNull()
  })

  it('every href of a ready panel is http(s) or the composed mailto', async () => {
    const { host } = await readyPanel()
    const all = hrefs(shadow(host))
    expect(all.length).toBe(4)
    for (const href of all) expect(href).toMatch(/^(https:\/\/|mailto:\?)/)
  })

  function renderWithLink(url: string) {
    const stores = createStores()
    stores.$campaign.set({
      status: 'ready',
      campaign: {
        id: 'camp_acmeFriendsAndFamily',
        name: 'Acme friends & family',
        status: 'active',
        rewardTrigger: 'signup',
        referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
        referredReward: { type: 'credit', amount: 10, currency: 'USD' },
        attributionWindow: '30d',
        createdAt: '2026-01-15T12:00:00Z',
      },
    })
    stores.$link.set({ status: 'ready', link: { code: 'ABCD1234', url } })
    const ui: UiSettings = {
      locale: 'en',
      theme: 'auto',
      messages: EN,
      dir: 'ltr',
      mode: 'test',
      language: 'en',
      shareUtm: false,
    }
    return render(<Panel source={stores} ui={ui} />)
  }

  it.each([
    'javascript:alert(1)//?ref=ABCD1234',
    'JavaScript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'not a url at all',
  ])('a link URL %j from the server never reaches an href or the input', (url) => {
    const { container } = renderWithLink(url)

    expect(container.querySelector('[data-part="link"]')).toBeNull()
    expect(container.querySelector('[data-part="share"]')).toBeNull()
    expect(container.querySelector<HTMLButtonElement>('[data-part="copy"]')?.disabled).toBe(true)
    for (const href of hrefs(container)) expect(href).toMatch(/^(https?:|mailto:)/)
    expect(container.innerHTML).not.toContain(url.slice(0, 10).replace(/&/g, '&amp;'))
  })

  it('an https link URL from the server is shown (the guard lets real links through)', () => {
    const { container } = renderWithLink('https://shop.test/?ref=ABCD1234')
    const input = container.querySelector<HTMLInputElement>('[data-part="link"]')
    expect(input?.value).toBe('https://shop.test/?ref=ABCD1234')
  })

  it('on a page that is not http(s), with no landing URL, no link is offered', async () => {
    const core = open({
      userId: 'alice',
      landingUrl: undefined,
      href: 'file:///C:/shop/index.html',
    })
    const host = mount(core)
    await settle()

    expect(linkInput(host)).toBeNull()
    for (const href of hrefs(shadow(host))) expect(href).toMatch(/^(https?:|mailto:)/)
    expect(shadow(host).innerHTML).not.toContain('file:')
  })
})
