// Where the simulated visitor is and what referral it holds, as its page reports it: on the
// shop's origin, or on the app's after following the hand-off link, where the referral should
// be the shop's own (the same code and visitor id) without a second click.
import type { DemoOrigins } from '../frames/protocol.ts'

export interface VisitorSide {
  /** `shop` or `app`, or `other` for a page of neither origin. */
  site: 'shop' | 'app' | 'other'
  origin: string
  code: string | null
  visitorId: string | null
}

export function sideOf(
  state: { href: string; attribution: string | null; visitorId: string | null },
  origins: Pick<DemoOrigins, 'visitor' | 'app'>,
): VisitorSide {
  let origin = ''
  try {
    origin = new URL(state.href).origin
  } catch {}
  const site = origin === origins.app ? 'app' : origin === origins.visitor ? 'shop' : 'other'
  return { site, origin, code: state.attribution, visitorId: state.visitorId }
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
