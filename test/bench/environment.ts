// The benchmark's world: the suite's Chromium, unable to reach anything but loopback, and the
// three origins the pages load from (the site, the referral service, the vendors).
import type { Browser } from 'playwright-core'
import { launch } from '../e2e/support/browser.ts'
import type { startHostOrigin, startServiceOrigin } from '../e2e/support/servers.ts'
import type { startVendorOrigin } from './vendors.ts'

export const isLoopback = (url: string) => {
  try {
    const { hostname, protocol } = new URL(url)
    if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true
    return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]'
  } catch {
    return false
  }
}

export interface Environment {
  browser: Browser
  service: Awaited<ReturnType<typeof startServiceOrigin>>
  host: Awaited<ReturnType<typeof startHostOrigin>>
  vendor: Awaited<ReturnType<typeof startVendorOrigin>>
  /** Non-loopback requests any page tried (answered with a resolver error, never sent). */
  foreign: string[]
}

/**
 * The suite's browser, plus a resolver that answers every name but the loopback ones with "not
 * found": nothing leaves the machine, without intercepting (and so slowing) the requests being
 * timed. Each attempt is still seen, reported and counted.
 */
export const launchBrowser = () =>
  launch(['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'])
