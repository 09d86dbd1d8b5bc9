// @vitest-environment happy-dom
// The Preact components (WIDGET.md section 2): an empty host on the server and in the first
// client render, the widget in a shadow root after effects, and the banner shown to a referred
// visitor. Their props are in components-props.test.tsx, the core they share in
// components-shared-core.test.tsx.
import { render } from '@testing-library/preact'
import { hydrate, render as preactRender } from 'preact'
import { renderToString } from 'preact-render-to-string'
import { describe, expect, it } from 'vitest'
import {
  container,
  hostOf,
  hostsOf,
  part,
  props,
  stateOf,
  useComponentWorld,
} from '../test/support/component-world.ts'
import { settle } from '../test/support/dom.ts'
import { errorSpy, world } from '../test/support/ui-world.ts'
import { ReferralBanner, ReferralWidget } from './components.tsx'

useComponentWorld()

// --- server and first render -----------------------------------------------------------------

describe('server-side rendering', () => {
  it('ReferralWidget renders only an empty host element, and sends nothing', async () => {
    const html = renderToString(<ReferralWidget {...props({ userId: 'alice' })} />)
    expect(html).toBe('<div data-referral-widget></div>')
    await settle()
    expect(world.sent).toEqual([])
  })

  it('ReferralBanner renders only an empty host element', () => {
    expect(renderToString(<ReferralBanner {...props()} />)).toBe('<div data-referral-banner></div>')
  })

  it('the class prop reaches the host element', () => {
    expect(renderToString(<ReferralWidget {...props()} class="sidebar-card" />)).toBe(
      '<div class="sidebar-card" data-referral-widget></div>',
    )
  })

  it('even a bad key renders the same empty element on the server, without throwing', () => {
    expect(renderToString(<ReferralWidget {...props({ publicKey: 'sk_test_acme' })} />)).toBe(
      '<div data-referral-widget></div>',
    )
  })
})

describe('in the browser', () => {
  it('the first render is the empty host; the panel mounts in a shadow root after effects', async () => {
    const root = container()
    preactRender(<ReferralWidget {...props({ userId: 'alice' })} />, root)

    // Before effects: exactly what the server sent, nothing requested.
    expect(root.innerHTML).toBe('<div data-referral-widget=""></div>')
    const host = hostOf(root)
    expect(host.shadowRoot).toBeNull()
    expect(world.sent).toEqual([])

    await settle()
    expect(host.shadowRoot?.mode).toBe('open')
    expect(stateOf(host)).toBe('ready')
    expect(part(host, 'headline')?.textContent).toBe('Give $10, get $10')
    expect((part(host, 'link') as HTMLInputElement | null)?.value).toMatch(
      /^https:\/\/shop\.test\/\?ref=[A-Za-z0-9]{8,12}$/,
    )
    // The light DOM stays as rendered: hydration never sees a difference.
    expect(host.children).toHaveLength(0)
  })

  it('hydrates the server markup without a mismatch, then mounts', async () => {
    const root = container()
    root.innerHTML = renderToString(<ReferralWidget {...props()} />)
    const serverHost = hostOf(root)
    hydrate(<ReferralWidget {...props()} />, root)

    expect(hostOf(root)).toBe(serverHost)
    expect(root.children).toHaveLength(1)
    await settle()
    expect(stateOf(serverHost)).toBe('ready')
  })

  it('with @testing-library/preact: the panel is there once rendered', async () => {
    const { container: root } = render(<ReferralWidget {...props({ userId: 'alice' })} />)
    await settle()
    const host = hostOf(root)
    expect(stateOf(host)).toBe('ready')
    expect(part(host, 'test-badge')?.textContent).toBe('Test mode')
  })

  it('a secret key: a [referral] console.error, an empty host, no request', async () => {
    const { container: root } = render(<ReferralWidget {...props({ publicKey: 'sk_test_acme' })} />)
    await settle()

    expect(hostOf(root).shadowRoot).toBeNull()
    expect(world.sent).toEqual([])
    const messages = errorSpy.mock.calls.map((call) => String(call[0]))
    expect(messages.some((text) => /^\[referral\] .*must never reach a browser/.test(text))).toBe(
      true,
    )
  })

  it('unmounting removes the host and its panel', async () => {
    const { container: root, unmount } = render(<ReferralWidget {...props()} />)
    await settle()
    expect(stateOf(hostOf(root))).toBe('ready')
    unmount()
    expect(hostsOf(root)).toHaveLength(0)
  })
})

// --- banner ----------------------------------------------------------------------------------

describe('ReferralBanner', () => {
  it('shows the referred reward to a visitor who arrived through a link, and dismisses', async () => {
    const code = await world.makeLink('alice')
    const { container: root } = render(
      <ReferralBanner {...props({ href: `https://shop.test/?ref=${code}` })} />,
    )
    await settle()
    const host = hostOf(root, 'data-referral-banner')
    expect(part(host, 'banner')).not.toBeNull()

    part(host, 'dismiss')?.click()
    await settle()
    expect(part(host, 'banner')).toBeNull()
  })

  it('shows nothing to a visitor who came on their own', async () => {
    const { container: root } = render(
      <ReferralBanner {...props({ href: 'https://shop.test/' })} />,
    )
    await settle()
    expect(part(hostOf(root, 'data-referral-banner'), 'banner')).toBeNull()
  })
})
