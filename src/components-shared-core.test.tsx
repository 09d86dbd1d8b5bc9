// @vitest-environment happy-dom
// The core behind the Preact components (WIDGET.md section 2): one core per key shared by every
// widget and banner on the page, and destroyed with the last of them.
import { render } from '@testing-library/preact'
import { describe, expect, it, vi } from 'vitest'
import {
  hostOf,
  hostsOf,
  part,
  props,
  stateOf,
  traffic,
  useComponentWorld,
} from '../test/support/component-world.ts'
import { settle } from '../test/support/dom.ts'
import { world } from '../test/support/ui-world.ts'
import type { FetchLike } from './api/client.ts'
import { ReferralBanner, ReferralWidget } from './components.tsx'

const MINUTE = 60 * 1000

useComponentWorld()

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
