// The hand-off to the site's other domains (option `outbound`): a link the visitor follows to one
// of those hosts, and a URL the page gives `decorate`, carries the attribution held here in one
// parameter, `ref_handoff` (its wire form: src/api/handoff.ts), which the widget there adopts.
// While a consent banner waits for its answer, the referral rides the same way on links to the
// page's own origin too, so it outlives the page until the visitor answers. The script tag loads
// this module beside its tracking part where data-outbound is set, or a referral waits so.
//
// A followed link is decorated as it is followed (followed-links.ts), with a hand-off time of that
// moment. Everything here runs inside the host's page: nothing it does may throw there.
import { encodeHandoff, HANDOFF_PARAM } from '../api/handoff.ts'
import type { Timers } from '../shared/timers.ts'
import { followLinks, withParam } from './followed-links.ts'
import type { Host } from './host.ts'
import type { Attribution } from './stores.ts'

export interface OutboundOptions {
  /** The hosts, as the `outbound` option's check gives them: lower case, `*.` for subdomains. */
  hosts: readonly string[]
  /** The attribution that may be handed off now: null without one, after a refusal, under GPC. */
  held: () => Attribution | null
  /**
   * Consent is pending: what is held is carried (`c1`, its click not recorded yet) on links to
   * the page's own origin too. Without it, or once it is false, only to `hosts`.
   */
  carried?: () => boolean
  now: () => number
  host: Pick<Host, 'href' | 'listen'>
  timers: Timers
}

export interface Outbound {
  /** `url` decorated when it points to an outbound host and there is something to hand off. */
  decorate(url: string): string
  /** Stops listening; every link still decorated gets its own address back. */
  stop(): void
}

/**
 * Whether `hostname` is one of `hosts`: named exactly, or a subdomain (at any depth, not the
 * domain itself) of a `*.` entry, as a Content-Security-Policy host source reads. The page's own
 * host matches only when named exactly: `*.example.org` on www.example.org leaves its own links
 * alone.
 */
export function isOutboundHost(hostname: string, hosts: readonly string[], pageHost = ''): boolean {
  for (let i = 0; i < hosts.length; i++) {
    const entry = hosts[i] ?? ''
    if (entry === hostname) return true
    if (entry.slice(0, 2) === '*.' && hostname !== pageHost) {
      const suffix = entry.slice(1)
      if (hostname.length > suffix.length && hostname.slice(-suffix.length) === suffix) return true
    }
  }
  return false
}

/** Marks a click one widget has handed off, so that a second one on the page leaves it be. */
const HANDED_OFF = Symbol.for('referral-widget.handed-off')

/* @__NO_SIDE_EFFECTS__ */
export function outboundLinks(options: OutboundOptions): Outbound {
  const { hosts, host, timers } = options
  let stopped = false

  function decorate(url: string): string {
    try {
      const held = stopped ? null : options.held()
      // Only a URL given as a non-empty string: `null` or `''` would read as the page itself.
      if (!held || typeof url !== 'string' || url === '') return url
      const page = host.href()
      const target = new URL(url, page)
      const protocol = target.protocol
      if (protocol !== 'http:' && protocol !== 'https:') return url
      let here: URL | undefined
      try {
        here = page === undefined ? undefined : new URL(page)
      } catch {}
      const carried = options.carried?.() === true
      if (
        !isOutboundHost(target.hostname, hosts, here?.hostname) &&
        !(carried && target.origin === here?.origin)
      )
        return url
      const value = encodeHandoff({
        code: held.code,
        visitorId: held.visitorId,
        capturedAt: Date.parse(held.capturedAt),
        handoffAt: options.now(),
        carried,
      })
      const href = target.href
      return value === null || typeof href !== 'string'
        ? url
        : withParam(href, HANDOFF_PARAM, value)
    } catch {
      return url // a URL the page's own URL class cannot read, or a page that replaced it
    }
  }

  const unfollow = followLinks({ decorate, mark: HANDED_OFF, host, timers })

  return {
    decorate,
    stop() {
      stopped = true
      unfollow()
    },
  }
}
