// Links the visitor follows, decorated on the way out: the hand-off to the site's other domains
// (outbound.ts) and the checkout reference on payment links (checkout/links.ts) share it. A link
// is decorated in the capture phase of its `click` (left button, Enter) or `auxclick` (middle
// button), so the browser navigates to the decorated address; the link gets its own address back
// in the next task, once the browser has read it, so no address carrying the visitor id stays in
// the page to be copied later. Links added after load are found the same way: the listener is on
// the window, not on the links. Everything here runs inside the host's page: it never throws.
import type { Timers } from '../shared/timers.ts'
import { withoutParams } from './clean-url.ts'
import type { Host } from './host.ts'

/** `href` (absolute) with `name=value` in place of any `name` it had; the rest as written. */
export function withParam(href: string, name: string, value: string): string {
  const base = withoutParams(href, [name]) ?? href
  const hashAt = base.indexOf('#')
  const beforeHash = hashAt === -1 ? base : base.slice(0, hashAt)
  const hash = hashAt === -1 ? '' : base.slice(hashAt)
  const joint = beforeHash.indexOf('?') === -1 ? '?' : /[?&]$/.test(beforeHash) ? '' : '&'
  return `${beforeHash}${joint}${name}=${value}${hash}`
}

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

export interface FollowedLinks {
  /** The address a followed link should go to instead of `address` (itself where none). */
  decorate(address: string): string
  /**
   * Marks a click one widget has decorated, so that a second one on the page leaves it be (each
   * use its own: a hand-off and a checkout reference never meet on one link).
   */
  mark: symbol
  host: Pick<Host, 'listen'>
  timers: Timers
}

/** Decorates the links the visitor follows from now on; returns what stops it (and gives back). */
export function followLinks({ decorate, mark, host, timers }: FollowedLinks): () => void {
  /** Links decorated and not given back yet: their own `href` attribute, and the one set. */
  const decorated = new Map<Element, [own: string, set: string]>()

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
      const handled = event as Event & { [mark]?: true }
      if (handled[mark]) return
      const link = linkOf(event)
      if (!link || link.hasAttribute('download')) return
      const own = link.getAttribute('href')
      const address = link.href
      const set = decorate(address)
      if (own === null || set === address) return
      link.setAttribute('href', set)
      handled[mark] = true
      decorated.set(link, [decorated.get(link)?.[0] ?? own, set])
      timers.setTimeout(giveBack, 0)
    } catch {}
  }

  const unlisten = [host.listen('click', follow), host.listen('auxclick', follow)]
  return () => {
    for (const stop of unlisten) stop()
    giveBack()
  }
}
