// Where the simulated visitor is and what referral it holds, as its page reports it: on the
// shop's origin, or on the app's after following the hand-off link, where the referral should
// be the shop's own (the same code and visitor id) without a second click; or in the referrer's
// own browser (this page's origin), where the widget should know the link as its own.
import type { DemoOrigins } from '../frames/protocol.ts'

export interface VisitorSide {
  /** `shop` or `app`, `referrer` on the demo page's own origin, `other` for any other page. */
  site: 'shop' | 'app' | 'referrer' | 'other'
  origin: string
  code: string | null
  visitorId: string | null
}

export function sideOf(
  state: { href: string; attribution: string | null; visitorId: string | null },
  origins: Pick<DemoOrigins, 'visitor' | 'app'> & { main?: string },
): VisitorSide {
  let origin = ''
  try {
    origin = new URL(state.href).origin
  } catch {}
  const site =
    origin === origins.app
      ? 'app'
      : origin === origins.visitor
        ? 'shop'
        : origin === origins.main
          ? 'referrer'
          : 'other'
  return { site, origin, code: state.attribution, visitorId: state.visitorId }
}

/**
 * The share link opened in the referrer's own browser: the same page on `main`, the origin (and
 * storage) of the referrer's panel, so the widget there knows the link as the one it showed.
 */
export function referrerArrivalUrl(shareUrl: string, main: string, opened: number): string {
  const url = new URL(shareUrl)
  const home = new URL(main)
  url.protocol = home.protocol
  url.host = home.host
  // A new address each time, so the frame loads again even for the same link.
  url.searchParams.set('n', String(opened))
  return url.toString()
}

/** The code of the newest `selfreferral` the visitor's page announced at `since` or after. */
export function heardSelfReferral(
  events: ReadonlyArray<{ source: string; name: string; detail: string; at: number }>,
  since: number,
): string | null {
  const heard = events
    .filter((event) => event.source === 'visitor' && event.name === 'selfreferral')
    .find((event) => event.at >= since)
  if (!heard) return null
  try {
    const { code } = JSON.parse(heard.detail) as { code?: unknown }
    return typeof code === 'string' ? code : '?'
  } catch {
    return '?'
  }
}

/** What the referrer's own arrival came to: `heard`, the widget's `selfreferral`, comes first. */
export function ownArrivalVerdict(
  heard: string | null,
  side: VisitorSide | null,
): { own: boolean; text: string } {
  if (heard !== null) {
    return { own: true, text: `your own link (${heard}): no click counted, no referral held` }
  }
  if (side?.code) {
    return { own: false, text: `counted as a visitor’s click on ${side.code}: not known as own` }
  }
  return { own: false, text: 'waiting for the widget…' }
}

/** What the app made of the hand-off, against the referral the shop held last. */
export function handoffVerdict(
  shop: VisitorSide | null,
  app: VisitorSide,
): { adopted: boolean; text: string } {
  if (!shop?.code) {
    return { adopted: false, text: 'no referral held on the shop to compare with' }
  }
  if (!app.code) return { adopted: false, text: 'not adopted: the app holds no referral' }
  if (app.code === shop.code && app.visitorId === shop.visitorId) {
    return { adopted: true, text: 'adopted: the same code and visitor id as on the shop' }
  }
  return {
    adopted: false,
    text: `not the shop’s: there ${shop.code} for visitor ${shop.visitorId ?? 'none'}`,
  }
}
