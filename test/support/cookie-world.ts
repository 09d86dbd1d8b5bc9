// Pages of one site on several host names, sharing one browser cookie store, for the tests of
// attribution across pages in test/core (cookieDomain, hand-off, first-touch), and their clock.
import { vi } from 'vitest'
import type { TrackedEvent } from '../../src/api/wire.ts'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { createCookieBrowser } from './cookies.ts'
import { useFakeClock } from './delivery-world.ts'
import { createWorld } from './harness.ts'

/** The attribution tests' fake clock, from 2 November 2026, 09:00 UTC. */
export const START = Date.UTC(2026, 10, 2, 9)
export const useAttributionClock = () => useFakeClock(START)
/** Lets the page's own work run: the arrival, the cookie, the start-up. */
export const settle = () => vi.advanceTimersByTimeAsync(10)
/** Past the queue's coalescing window: what was tracked is sent and answered. */
export const sendAll = () => vi.advanceTimersByTimeAsync(SEND_DELAY_MS + 10)

/** A world, a link of alice's, and one cookie store for the pages of every host name. */
export async function setUp() {
  const world = createWorld()
  const code = await world.makeLink('alice')
  const browser = createCookieBrowser()
  const page = (host: string, path: string, options: Parameters<typeof world.tab>[0] = {}) =>
    world.tab({
      cookieDomain: 'shop.test',
      href: `https://${host}${path}`,
      cookie: browser.jar(host),
      ...options,
    })
  return { world, code, browser, page }
}

export function sentEvents(tab: ReturnType<ReturnType<typeof createWorld>['tab']>) {
  const sent: TrackedEvent[] = []
  tab.on('event:sent', ({ event }) => sent.push(event))
  return sent
}
