// Keeping the referral past Safari's seven days: Safari deletes every cookie a script wrote, and
// all of a site's storage, after seven days without a visit (24 hours for some arrivals by a
// decorated link), but a cookie the site's own server sets keeps its Max-Age. keepAttribution
// turns the widget's cookie (data-cookie-domain) into such a cookie, HttpOnly, for what is left
// of the campaign's window; readAttribution reads the two as one. The referral it keeps changes
// only as the site's rule says (the first within its window, or the last), and a page's script
// can neither read nor overwrite it.
import {
  ATTRIBUTION_COOKIE,
  cookieValues,
  decodeHeld,
  encodeAttribution,
  type HeldAttribution,
} from '../api/attribution-cookie.ts'
import { DAY_MS } from '../shared/timers.ts'

/** The server's cookie: `__Host-` (no Domain, Path=/, Secure: no subdomain or path shadows it). */
export const KEPT_COOKIE = '__Host-referral_kept'
/** Its name without Secure (`secure: false`, plain-http development), where `__Host-` is refused. */
export const KEPT_COOKIE_INSECURE = 'referral_kept'

export interface KeepOptions {
  /** Secure (and the `__Host-` name); false only for plain-http development. Default true. */
  secure?: boolean
  /** The clock, in milliseconds; default Date.now. */
  now?: number
}

/** Of two referrals, the one the rule keeps: the same one with newer news, the first or the last. */
function kept(held: HeldAttribution | null, fresh: HeldAttribution | null) {
  if (!held || !fresh) return held ?? fresh
  if (held.code === fresh.code && held.capturedAt === fresh.capturedAt) return fresh
  if (fresh.firstTouch) return held.capturedAt <= fresh.capturedAt ? held : fresh
  return held.capturedAt >= fresh.capturedAt ? held : fresh
}

/** What the server keeps and what the widget's cookie says, each read strictly (null if none). */
function both(header: string | null | undefined, now: number) {
  const read = (name: string) =>
    cookieValues(header, name)
      .map((value) => decodeHeld(value, { now }))
      .reduce<HeldAttribution | null>((found, value) => kept(found, value), null)
  const held = kept(read(KEPT_COOKIE), read(KEPT_COOKIE_INSECURE))
  return { held, fresh: read(ATTRIBUTION_COOKIE) }
}

/** The referral a request carries, the kept one and the widget's read as the rule says. */
export function heldAttribution(header: string | null | undefined, now: number) {
  const { held, fresh } = both(header, now)
  return kept(held, fresh)
}

/**
 * The value of one `Set-Cookie` header for the response to a request with this Cookie header, or
 * null when there is nothing new to keep: an HttpOnly, SameSite=Lax, Path=/ cookie holding the
 * referral the widget's cookie carries, for what is left of the campaign's window (30 days where
 * no page knew it). It changes only when the widget's cookie brings a referral the site's rule
 * puts first (or news of the same one, such as its campaign's window). Never throws.
 */
export function keepAttribution(
  cookieHeader: string | null | undefined,
  options: KeepOptions = {},
): string | null {
  try {
    const now = options.now ?? Date.now()
    const secure = options.secure !== false
    const { held, fresh } = both(cookieHeader, now)
    const winner = kept(held, fresh)
    if (!winner || winner === held) return null
    const value = encodeAttribution(winner, winner)
    if (held && value === encodeAttribution(held, held)) return null
    const maxAge = Math.floor(
      (Date.parse(winner.capturedAt) + winner.windowDays * DAY_MS - now) / 1000,
    )
    if (!(maxAge > 0)) return null
    const name = secure ? KEPT_COOKIE : KEPT_COOKIE_INSECURE
    return `${name}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`
  } catch {
    return null // a caller's middleware must never fail here
  }
}
