// @vitest-environment happy-dom
// The Preact components (WIDGET.md section 2): an empty host on the server and in the first
// client render, the widget in a shadow root after effects, one core per key shared by every
// widget on the page, and destroyed with the last of them.
import { cleanup, render } from '@testing-library/preact'
import { hydrate, render as preactRender } from 'preact'
import { renderToString } from 'preact-render-to-string'
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { settle } from '../test/support/dom.ts'
import { API, createWorld } from '../test/support/harness.ts'
import type { FetchLike } from './api/client.ts'
import { ReferralBanner, ReferralWidget, type ReferralWidgetProps } from './components.tsx'
import { browserHost } from './core/host.ts'
import type { StorageLike } from './queue/storage.ts'
import { resetWarnings } from './shared/log.ts'

const START = Date.UTC(2026, 0, 15, 12)
const MINUTE = 60 * 1000

type World = ReturnType<typeof createWorld>

interface Traffic {
  campaigns: number
  links: number
  events: number
}

let world: World
let storage: StorageLike
let errorSpy: MockInstance<typeof console.error>
let containers: HTMLElement[] = []

beforeEach(() => {
  vi.useFakeTimers({ now: START })
  resetWarnings()
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {})
  world = createWorld()
  storage = world.createMemoryStorage()
  containers = []
})

afterEach(async () => {
  cleanup()
  for (const container of containers) preactRender(null, container)
  // Preact's effects wait for the next frame on a module-level queue: let it run on the fake
  // timers that hold it, or later tests' effects never run.
  await vi.advanceTimersByTimeAsync(100)
  document.body.replaceChildren()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

// --- helpers ---------------------------------------------------------------------------------

/** The options of the harness's tabs, as component props. */
function props(
  overrides: Partial<ReferralWidgetProps> & { href?: string } = {},
): ReferralWidgetProps {
  const { href, ...rest } = overrides
  return {
    publicKey: 'pk_test_acme',
    apiBase: API,
    fetch: world.fetch,
    storage,
    now: () => Date.now(),
    random: () => 0.5,
    landingUrl: 'https://shop.test/',
    locks: null,
    host: {
      href: () => href,
      replaceUrl: () => {},
      isOnline: () => true,
      listen: () => () => {},
      locks: undefined,
      sendBeacon: undefined,
    },
    ...rest,
  }
}

function traffic(): Traffic {
  const count = (prefix: string) =>
    world.sent.filter((request) => request.path.startsWith(prefix)).length
  return {
    campaigns: count('/v1/campaigns'),
    links: count('/v1/links'),
    events: count('/v1/events'),
  }
}

const hostsOf = (root: ParentNode, marker = 'data-referral-widget') =>
  Array.from(root.querySelectorAll<HTMLElement>(`[${marker}]`))

function hostOf(root: ParentNode, marker = 'data-referral-widget'): HTMLElement {
  const [host] = hostsOf(root, marker)
  if (!host) throw new Error(`no [${marker}] element`)
  return host
}

const part = (host: Element, name: string) =>
  host.shadowRoot?.querySelector<HTMLElement>(`[data-part="${name}"]`) ?? null

const stateOf = (host: Element) => part(host, 'root')?.getAttribute('data-state')

function container(): HTMLElement {
  const element = document.createElement('div')
  document.body.append(element)
  containers.push(element)
  return element
}

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

// --- props -----------------------------------------------------------------------------------

describe('props', () => {
  it('switching the theme prop re-themes the mounted panel', async () => {
    const { container: root, rerender } = render(<ReferralWidget {...props()} theme="light" />)
    await settle()
    const host = hostOf(root)
    expect(part(host, 'root')?.getAttribute('data-theme')).toBe('light')

    rerender(<ReferralWidget {...props()} theme="dark" />)
    await settle()
    expect(part(host, 'root')?.getAttribute('data-theme')).toBe('dark')
    expect(host.shadowRoot?.querySelectorAll('[data-part="root"]')).toHaveLength(1)

    rerender(<ReferralWidget {...props()} theme="auto" />)
    await settle()
    expect(part(host, 'root')?.getAttribute('data-theme')).toBe('auto')
  })

  it('theme switching does not reload the campaign', async () => {
    const { rerender } = render(<ReferralWidget {...props()} theme="light" />)
    await settle()
    rerender(<ReferralWidget {...props()} theme="dark" />)
    await settle()
    expect(traffic().campaigns).toBe(1)
  })

  it('a new userId shows that user’s link', async () => {
    const { container: root, rerender } = render(<ReferralWidget {...props({ userId: 'alice' })} />)
    await settle()
    const host = hostOf(root)
    const alice = (part(host, 'link') as HTMLInputElement | null)?.value

    rerender(<ReferralWidget {...props({ userId: 'bob' })} />)
    await settle()
    const bob = (part(host, 'link') as HTMLInputElement | null)?.value
    expect(bob).toBe(`https://shop.test/?ref=${await world.makeLink('bob')}`)
    expect(alice).toBe(`https://shop.test/?ref=${await world.makeLink('alice')}`)
  })

  it('the shareUtm prop tags each channel’s link, and turning it off untags them', async () => {
    const { container: root, rerender } = render(
      <ReferralWidget {...props({ userId: 'alice' })} shareUtm />,
    )
    await settle()
    const host = hostOf(root)
    const whatsapp = () => {
      const href = part(host, 'share')
        ?.querySelector('a[data-network="whatsapp"]')
        ?.getAttribute('href')
      return new URL(new URL(href ?? '').searchParams.get('text')?.split(' ').at(-1) ?? '')
    }
    expect(whatsapp().searchParams.get('utm_source')).toBe('whatsapp')
    expect(whatsapp().searchParams.get('ref')).toBe(await world.makeLink('alice'))
    rerender(<ReferralWidget {...props({ userId: 'alice' })} />)
    await settle()
    expect(whatsapp().searchParams.has('utm_source')).toBe(false)
  })

  it('the locale and messages props reach the panel', async () => {
    const { container: root } = render(
      <ReferralWidget {...props()} locale="ar" messages={{ signIn: 'سجّل الدخول أولاً' }} />,
    )
    await settle()
    const host = hostOf(root)
    expect(part(host, 'root')?.getAttribute('dir')).toBe('rtl')
    expect(part(host, 'sign-in')?.textContent).toBe('سجّل الدخول أولاً')
  })

  it('the outbound prop: a followed link there carries the referral; an equal list keeps the core, another builds a new one', async () => {
    const code = await world.makeLink('alice')
    const arrived = props({ href: `https://shop.test/?ref=${code}` })
    // The window's own listeners, so that a click on a link reaches the core.
    const page = (outbound: string[]) => ({
      ...arrived,
      host: { ...arrived.host, listen: browserHost.listen },
      outbound,
    })
    const hrefWhenFollowed = (href: string) => {
      const link = document.createElement('a')
      link.href = href
      document.body.append(link)
      let seen: string | null = null
      link.addEventListener('click', () => {
        seen = link.getAttribute('href')
      })
      link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }))
      link.remove()
      return seen
    }
    const { rerender } = render(<ReferralWidget {...page(['app.other.test'])} />)
    await settle()
    expect(hrefWhenFollowed('https://app.other.test/')).toContain('?ref_handoff=h1.')
    rerender(<ReferralWidget {...page(['app.other.test'])} />)
    await settle()
    expect(traffic().campaigns).toBe(1)
    rerender(<ReferralWidget {...page(['app.example.io'])} />)
    await settle()
    expect(traffic().campaigns).toBe(2)
    expect(hrefWhenFollowed('https://app.other.test/')).toBe('https://app.other.test/')
    expect(hrefWhenFollowed('https://app.example.io/')).toContain('?ref_handoff=h1.')
  })
})

// --- one core per key ------------------------------------------------------------------------

describe('one core per key', () => {
  it('two widgets with the same key share one core: one campaign request', async () => {
    const { container: root } = render(
      <>
        <ReferralWidget {...props({ userId: 'alice' })} />
        <ReferralWidget {...props({ userId: 'alice' })} />
      </>,
    )
    await settle()

    const hosts = hostsOf(root)
    expect(hosts).toHaveLength(2)
    for (const host of hosts) expect(stateOf(host)).toBe('ready')
    expect(traffic()).toEqual({ campaigns: 1, links: 1, events: 0 })
  })

  it('a widget and a banner with the same key share one core', async () => {
    const code = await world.makeLink('alice')
    const href = `https://shop.test/?ref=${code}`
    const { container: root } = render(
      <>
        <ReferralBanner {...props({ href })} />
        <ReferralWidget {...props({ href })} />
      </>,
    )
    await settle()

    expect(traffic().campaigns).toBe(1)
    expect(traffic().events).toBe(1) // one click, not one per widget
    const banner = hostOf(root, 'data-referral-banner')
    expect(part(banner, 'banner')?.querySelector('p')?.textContent).toBe(
      'A friend invited you: sign up and get $10 credit',
    )
  })

  it('two different keys get two cores', async () => {
    render(
      <>
        <ReferralWidget {...props()} />
        <ReferralWidget {...props({ publicKey: 'pk_test_globex' })} />
      </>,
    )
    await settle()
    expect(traffic().campaigns).toBe(2)
  })

  describe('unmounting the last widget destroys the core', () => {
    // The events endpoint is down: a core that lives keeps retrying its queued click.
    function eventsDown(): FetchLike {
      return (input, init) => {
        if (new URL(input).pathname !== '/v1/events') return world.fetch(input, init)
        world.sent.push({ path: '/v1/events', method: 'POST', eventIds: [], status: 503 })
        const body = { error: { type: 'api_error', code: 'unavailable', message: 'down' } }
        return Promise.resolve(
          new Response(JSON.stringify(body), {
            status: 503,
            headers: { 'Content-Type': 'application/json' },
          }),
        )
      }
    }

    async function page() {
      const code = await world.makeLink('alice')
      const shared = props({ href: `https://shop.test/?ref=${code}`, fetch: eventsDown() })
      const two = (
        <>
          <ReferralWidget {...shared} />
          <ReferralWidget {...shared} />
        </>
      )
      const one = <ReferralWidget {...shared} />
      const rendered = render(two)
      await settle()
      expect(traffic().events).toBeGreaterThan(0)
      return { ...rendered, one, shared }
    }

    it('while one widget remains, the core keeps working', async () => {
      const { rerender, one } = await page()
      rerender(one)
      await settle()
      const before = traffic().events
      await vi.advanceTimersByTimeAsync(10 * MINUTE)
      expect(traffic().events).toBeGreaterThan(before)
    })

    it('after the last one, no more requests', async () => {
      const { unmount } = await page()
      unmount()
      await settle()
      const before = traffic()
      await vi.advanceTimersByTimeAsync(60 * MINUTE)
      expect(traffic()).toEqual(before)
    })

    it('a widget mounted later starts a new core', async () => {
      const { unmount, shared } = await page()
      unmount()
      await settle()
      expect(traffic().campaigns).toBe(1)
      render(<ReferralWidget {...shared} />)
      await settle()
      expect(traffic().campaigns).toBe(2)
    })

    it('a widget mounted while another lives reuses its core', async () => {
      const { shared } = await page()
      render(<ReferralWidget {...shared} />)
      await settle()
      expect(traffic().campaigns).toBe(1)
    })
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
