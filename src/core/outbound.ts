// The hand-off to the site's other domains (option `outbound`): a link the visitor follows to one
// of those hosts, and a URL the page gives `decorate`, carries the attribution held here in one
// parameter, `ref_handoff` (its wire form: src/api/handoff.ts), which the widget there adopts.
// While a consent banner waits for its answer, the referral rides the same way on links to the
// page's own origin too, so it outlives the page until the visitor answers. The script tag loads
// this module beside its tracking part where data-outbound is set, or a referral waits so.
//
// A followed link is decorated in the capture phase of its `click` (left button, Enter) or
// `auxclick` (middle button), so the browser navigates to the decorated address with a hand-off
// time of that moment; the link gets its own address back in the next task, once the browser has
// read it, so no address carrying the visitor id stays in the page to be copied later. Links
// added after load are found the same way: the listener is on the window, not on the links.
// Everything here runs inside the host's page: nothing it does may throw there.
import { encodeHandoff, HANDOFF_PARAM } from '../api/handoff.ts'
import type { Timers } from '../shared/timers.ts'
import { withoutParams } from './clean-url.ts'
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

/** `href` (absolute) with `name=value` in place of any `name` it had; the rest as written. */
function withParam(href: string, name: string, value: string): string {
  const base = withoutParams(href, [name]) ?? href
  const hashAt = base.indexOf('#')
  const beforeHash = hashAt === -1 ? base : base.slice(0, hashAt)
  const hash = hashAt === -1 ? '' : base.slice(hashAt)
  const joint = beforeHash.indexOf('?') === -1 ? '?' : /[?&]$/.test(beforeHash) ? '' : '&'
  return `${beforeHash}${joint}${name}=${value}${hash}`
}

/** Marks a click one widget has handed off, so that a second one on the page leaves it be. */
const HANDED_OFF = Symbol.for('referral-widget.handed-off')

/** The link (`<a href>` or `<area href>`) an event went through, shadow roots included. */
function linkOf(event: Event): HTMLAnchorElement | HTMLAreaElement | null {
  const path = event.composedPath()
  for (let i = 0; i < path.length; i++) {
    const link = path[i] as HTMLAnchorElement | undefined
    const name = link?.localName
    if (!link || (name !== 'a' && name !== 'area')) continue
    // An SVG <a> has an object for href, not an address: not a link this follows.
    return typeof link.href === 'string' && link.hasAttribute('href') ? link : null
  }
  return null
}

/* @__NO_SIDE_EFFECTS__ */
export function outboundLinks(options: OutboundOptions): Outbound {
  const { hosts, host, timers } = options
  let stopped = false
  /** Links decorated and not given back yet: their own `href` attribute, and the one set. */
  const decorated = new Map<Element, [own: string, set: string]>()

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

  /** Each link still as this left it gets its own address back; one the page changed is left. */
  function giveBack() {
    for (const [link, [own, set]] of decorated) {
      try {
        if (link.getAttribute('href') === set) link.setAttribute('href', own)
      } catch {}
    }
    decorated.clear()
  }

  function follow(event: Event) {
    try {
      // auxclick: the middle button only (the right one opens a menu, not the link).
      if (event.type === 'auxclick' && (event as MouseEvent).button !== 1) return
      // Another widget on the page (another key, another copy) handed this click off already.
      const handled = event as Event & { [HANDED_OFF]?: true }
      if (handled[HANDED_OFF]) return
      const link = linkOf(event)
      if (!link || link.hasAttribute('download')) return
      const own = link.getAttribute('href')
      const address = link.href
      const set = decorate(address)
      if (own === null || set === address) return
      link.setAttribute('href', set)
      handled[HANDED_OFF] = true
      decorated.set(link, [decorated.get(link)?.[0] ?? own, set])
      timers.setTimeout(giveBack, 0)
    } catch {}
  }

  const unlisten = [host.listen('click', follow), host.listen('auxclick', follow)]

  return {
    decorate,
    stop() {
      stopped = true
      for (const stop of unlisten) stop()
      giveBack()
    },
  }
}
