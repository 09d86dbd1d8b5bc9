// Pages of one site on several host names, sharing one browser cookie store, for the tests of
// the attribution cookie (cookieDomain) in test/core.
import type { TrackedEvent } from '../../src/api/wire.ts'
import { createCookieBrowser } from './cookies.ts'
import { createWorld } from './harness.ts'

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
