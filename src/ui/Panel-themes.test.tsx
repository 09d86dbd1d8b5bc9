// @vitest-environment happy-dom
// The referrer's panel's themes and its test badge (WIDGET.md section 3): light, dark and auto
// (following prefers-color-scheme), switched in place, and the badge QA sees with a test key. The
// panel runs against the in-process reference service (test/support/harness.ts) with fake time.
import { describe, expect, it } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import {
  createCampaign,
  type HappyDomWindow,
  mountPanelHost as mount,
  open,
  part,
  readyPanel,
  rootOf,
  shadow,
  teardown,
  text,
  useUiWorld,
} from '../../test/support/ui-world.ts'
import { mountPanel } from './mount.ts'

useUiWorld()

// --- themes ----------------------------------------------------------------------------------

describe('themes', () => {
  const background = (host: Element) => getComputedStyle(rootOf(host)).backgroundColor

  it('defaults to auto', async () => {
    const { host } = await readyPanel()
    expect(rootOf(host).getAttribute('data-theme')).toBe('auto')
  })

  it.each(['light', 'dark', 'auto'] as const)('the %s theme is set on the root', async (theme) => {
    const { host } = await readyPanel({ theme })
    expect(rootOf(host).getAttribute('data-theme')).toBe(theme)
  })

  it('dark looks dark and light looks light', async () => {
    const dark = await readyPanel({ theme: 'dark' })
    const light = mount(dark.core, { theme: 'light' })
    await settle()
    expect(background(dark.host)).toBe('#17181c')
    expect(background(light)).toBe('#ffffff')
  })

  it.each([
    ['light', '#ffffff'],
    ['dark', '#17181c'],
  ])('auto follows prefers-color-scheme: %s', async (scheme, color) => {
    ;(window as unknown as HappyDomWindow).happyDOM.settings.device.prefersColorScheme = scheme
    const { host } = await readyPanel({ theme: 'auto' })
    expect(background(host)).toBe(color)
  })

  it('an explicit light theme stays light when the system prefers dark', async () => {
    ;(window as unknown as HappyDomWindow).happyDOM.settings.device.prefersColorScheme = 'dark'
    const { host } = await readyPanel({ theme: 'light' })
    expect(background(host)).toBe('#ffffff')
  })

  it('switching the theme re-renders the same panel in place', async () => {
    const core = open({ userId: 'alice' })
    const host = document.createElement('div')
    document.body.append(host)
    mountPanel(host, core, { theme: 'dark' })
    await settle()
    expect(rootOf(host).getAttribute('data-theme')).toBe('dark')

    const unmount = mountPanel(host, core, { theme: 'light' })
    teardown.push(unmount)
    await settle()
    expect(shadow(host).querySelectorAll('[data-part="root"]')).toHaveLength(1)
    expect(rootOf(host).getAttribute('data-theme')).toBe('light')
    expect(background(host)).toBe('#ffffff')
  })
})

// --- test badge ------------------------------------------------------------------------------

describe('test badge', () => {
  it('shows with a pk_test_ key', async () => {
    const { host } = await readyPanel()
    expect(text(host, 'test-badge')).toBe('Test mode')
  })

  it('shows while loading too, so QA never mistakes a test page for live', () => {
    const host = mount(open())
    expect(text(host, 'test-badge')).toBe('Test mode')
  })

  it('never shows with a pk_live_ key', async () => {
    await createCampaign('sk_live_acme', {
      name: 'Acme live',
      referrer: { amount: 25, currency: 'USD' },
      referred: { amount: 10, currency: 'USD' },
    })
    const { host } = await readyPanel({ publicKey: 'pk_live_acme' })
    expect(rootOf(host).getAttribute('data-state')).toBe('ready')
    expect(text(host, 'headline')).toBe('Give $10, get $25')
    expect(part(host, 'test-badge')).toBeNull()
    expect(rootOf(host).textContent).not.toContain('Test mode')
  })
})
