// @vitest-environment happy-dom
// <referral-widget> on and off the page: elements with the same key share one core, and an
// element removed stops its widget (no more requests) until it is put back.
import { describe, expect, it, vi } from 'vitest'
import { settle } from '../test/support/dom.ts'
import {
  connect,
  count,
  MINUTE,
  part,
  useElementPage,
  world,
} from '../test/support/element-page.ts'

useElementPage()

describe('<referral-widget>', () => {
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
