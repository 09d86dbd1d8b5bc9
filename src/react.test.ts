// @vitest-environment happy-dom
// The React components (referral-widget/react), rendered with react-dom: an empty host on the
// server and in the first client render, the widget in a shadow root after effects, every prop
// followed, the core released on unmount.
import { act, createElement, StrictMode } from 'react'
import { createRoot, hydrateRoot, type Root } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { componentProps } from '../test/support/component-props.ts'
import { settle } from '../test/support/dom.ts'
import { createWorld } from '../test/support/harness.ts'
import type { StorageLike } from './queue/storage.ts'
import { ReferralBanner, ReferralWidget, type ReferralWidgetProps } from './react.ts'
import { resetWarnings } from './shared/log.ts'

declare global {
  // React's flag for "updates are wrapped in act()".
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined
}

const START = Date.UTC(2026, 0, 15, 12)
const MINUTE = 60 * 1000

let world: ReturnType<typeof createWorld>
let storage: StorageLike
let roots: Root[] = []

beforeEach(() => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true
  vi.useFakeTimers({ now: START })
  resetWarnings()
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
  world = createWorld()
  storage = world.createMemoryStorage()
  roots = []
})

afterEach(async () => {
  for (const root of roots) act(() => root.unmount())
  await vi.advanceTimersByTimeAsync(100)
  document.body.replaceChildren()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

function props(overrides: Partial<ReferralWidgetProps> & { href?: string } = {}) {
  const { href, ...rest } = overrides
  return { ...componentProps(world.fetch, storage, href), ...rest } satisfies ReferralWidgetProps
}

const count = (prefix: string) =>
  world.sent.filter((request) => request.path.startsWith(prefix)).length

const part = (host: Element, name: string) =>
  host.shadowRoot?.querySelector<HTMLElement>(`[data-part="${name}"]`) ?? null

function hostOf(container: Element, marker = 'data-referral-widget'): HTMLElement {
  const host = container.querySelector<HTMLElement>(`[${marker}]`)
  if (!host) throw new Error(`no [${marker}] element`)
  return host
}

/** Renders into a fresh container; `update` re-renders with new props. */
async function mount(element: ReturnType<typeof createElement>) {
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  roots.push(root)
  await act(async () => root.render(element))
  await settle()
  return {
    container,
    host: () => hostOf(container),
    update: async (next: ReturnType<typeof createElement>) => {
      await act(async () => root.render(next))
      await settle()
    },
    unmount: async () => {
      await act(async () => root.unmount())
      roots = roots.filter((each) => each !== root)
      await settle()
    },
  }
}

const widget = (overrides: Parameters<typeof props>[0] = {}) =>
  createElement(ReferralWidget, props(overrides))

describe('on the server', () => {
  it('ReferralWidget and ReferralBanner render only an empty host, and send nothing', async () => {
    expect(renderToString(widget({ userId: 'alice' }))).toBe('<div data-referral-widget=""></div>')
    expect(renderToString(createElement(ReferralBanner, props()))).toBe(
      '<div data-referral-banner=""></div>',
    )
    expect(renderToString(widget({ className: 'card' }))).toBe(
      '<div class="card" data-referral-widget=""></div>',
    )
    await settle()
    expect(world.sent).toEqual([])
  })
})

describe('in the browser', () => {
  it('mounts the panel in the host’s shadow root, ready with the user’s link', async () => {
    const { host } = await mount(widget({ userId: 'alice' }))
    expect(host().shadowRoot?.mode).toBe('open')
    expect(part(host(), 'root')?.getAttribute('data-state')).toBe('ready')
    expect(part(host(), 'headline')?.textContent).toBe('Give $10, get $10')
    expect((part(host(), 'link') as HTMLInputElement | null)?.value).toBe(
      `https://shop.test/?ref=${await world.makeLink('alice')}`,
    )
    expect(host().children).toHaveLength(0)
  })

  it('hydrates the server markup without a recoverable error, then mounts', async () => {
    const container = document.createElement('div')
    document.body.append(container)
    container.innerHTML = renderToString(widget())
    const serverHost = hostOf(container)
    const onRecoverableError = vi.fn()
    await act(async () => {
      roots.push(hydrateRoot(container, widget(), { onRecoverableError }))
    })
    await settle()
    expect(onRecoverableError).not.toHaveBeenCalled()
    expect(hostOf(container)).toBe(serverHost)
    expect(part(serverHost, 'root')?.getAttribute('data-state')).toBe('ready')
  })

  it('under StrictMode (effects run twice) the panel still shows once', async () => {
    const { host } = await mount(createElement(StrictMode, null, widget()))
    expect(host().shadowRoot?.querySelectorAll('[data-part="root"]')).toHaveLength(1)
    expect(part(host(), 'root')?.getAttribute('data-state')).toBe('ready')
  })

  it('the banner greets a visitor who arrived through a link', async () => {
    const code = await world.makeLink('alice')
    const { container } = await mount(
      createElement(ReferralBanner, props({ href: `https://shop.test/?ref=${code}` })),
    )
    const banner = hostOf(container, 'data-referral-banner')
    expect(part(banner, 'banner')?.querySelector('p')?.textContent).toBe(
      'A friend invited you: sign up and get $10 credit',
    )
  })
})

describe('props', () => {
  it('a new theme re-themes the panel without asking for the campaign again', async () => {
    const { host, update } = await mount(widget({ theme: 'light' }))
    expect(part(host(), 'root')?.getAttribute('data-theme')).toBe('light')
    await update(widget({ theme: 'dark' }))
    expect(part(host(), 'root')?.getAttribute('data-theme')).toBe('dark')
    expect(count('/v1/campaigns')).toBe(1)
  })

  it('a new userId shows that user’s link', async () => {
    const { host, update } = await mount(widget({ userId: 'alice' }))
    await update(widget({ userId: 'bob' }))
    expect((part(host(), 'link') as HTMLInputElement | null)?.value).toBe(
      `https://shop.test/?ref=${await world.makeLink('bob')}`,
    )
  })

  it('locale and messages reach the panel; an equal messages literal is not a change', async () => {
    const { host, update } = await mount(
      widget({ locale: 'ar', messages: { signIn: 'سجّل الدخول أولاً' } }),
    )
    expect(part(host(), 'root')?.getAttribute('dir')).toBe('rtl')
    expect(part(host(), 'sign-in')?.textContent).toBe('سجّل الدخول أولاً')
    const before = part(host(), 'root')
    await update(widget({ locale: 'ar', messages: { signIn: 'سجّل الدخول أولاً' } }))
    expect(part(host(), 'root')).toBe(before)
    await update(widget({ locale: 'de', messages: { signIn: 'Bitte anmelden' } }))
    expect(part(host(), 'root')?.getAttribute('dir')).toBe('ltr')
    expect(part(host(), 'sign-in')?.textContent).toBe('Bitte anmelden')
  })

  it('a new key shows the other organization’s campaign', async () => {
    const { host, update } = await mount(widget())
    expect(part(host(), 'headline')?.textContent).toBe('Give $10, get $10')
    await update(widget({ publicKey: 'pk_test_globex' }))
    expect(part(host(), 'headline')?.textContent).not.toBe('Give $10, get $10')
    expect(part(host(), 'root')?.getAttribute('data-state')).toBe('ready')
    expect(count('/v1/campaigns')).toBe(2)
  })

  it('a bad key: a [referral] console.error, an empty host, no request', async () => {
    const { host } = await mount(widget({ publicKey: 'sk_test_acme' }))
    expect(host().shadowRoot).toBeNull()
    expect(world.sent).toEqual([])
    const logged = vi.mocked(console.error).mock.calls.map((call) => String(call[0]))
    expect(logged.some((text) => text.startsWith('[referral] '))).toBe(true)
  })
})

describe('unmounting', () => {
  it('removes the host and stops the core: no request after', async () => {
    const code = await world.makeLink('alice')
    const down = () =>
      Promise.resolve(
        new Response('{"error":{"type":"api_error","code":"down","message":"down"}}', {
          status: 503,
          headers: { 'Content-Type': 'application/json' },
        }),
      )
    const { container, unmount } = await mount(
      widget({
        href: `https://shop.test/?ref=${code}`,
        fetch: (input, init) => {
          if (new URL(input).pathname !== '/v1/events') return world.fetch(input, init)
          world.sent.push({ path: '/v1/events', method: 'POST', eventIds: [], status: 503 })
          return down()
        },
      }),
    )
    expect(count('/v1/events')).toBeGreaterThan(0)
    await unmount()
    expect(container.querySelector('[data-referral-widget]')).toBeNull()
    const before = world.sent.length
    await vi.advanceTimersByTimeAsync(60 * MINUTE)
    expect(world.sent.length).toBe(before)
  })
})
