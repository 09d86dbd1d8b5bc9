// The wire form of a hand-off (option `outbound`): the attribution a page holds, carried in one
// URL parameter to another domain of the same site, whose widget (the same key) adopts it. No
// DOM, no dependency beyond the contract's patterns.
//
//   ref_handoff=h1.<code>.<visitorId>.<capturedAt>.<handoffAt>
//
// `c1` in place of `h1`: a referral carried before the visitor answered a consent banner, through
// the site's own links too; its click is not recorded yet (it is, once, where they consent).
//
// Both times are milliseconds since the epoch in base 36 (lower case, no leading zero), as in the
// attribution cookie (attribution-cookie.ts); every part is letters, digits, `_` or `-`, so the
// value needs no escaping in a URL. It is not secret and not signed: a made-up one can do no more
// than a referral link can, since the service credits a sign-up only to a visitor id that clicked
// the code (docs/CONTRACT.md, "The hand-off").

import { DAY_MS } from '../shared/timers.ts'
import { CLIENT_ID_PATTERN, CODE_PATTERN, MAX_ATTRIBUTION_DAYS } from './wire.ts'

export const HANDOFF_PARAM = 'ref_handoff'
export const HANDOFF_VERSION = 'h1'
/** The version of a referral carried while consent is pending (its click not yet recorded). */
export const CARRIED_VERSION = 'c1'
/** A hand-off younger than this is adopted as it is; an older one is an arrival by its code. */
export const HANDOFF_FRESH_MS = 30 * 60 * 1000
/** Longer than any value the encoder makes (2 + 12 + 64 + 11 + 11 + 4 dots = 104). */
export const MAX_HANDOFF_LENGTH = 110
/**
 * How far ahead of the reader's clock a time may be. Both ends run in the same browser, so only
 * a clock set back in between can make one.
 */
const TOLERANCE_MS = 60 * 1000
/** No campaign's window is longer, so an older capture can credit nothing. */
const MAX_AGE_MS = MAX_ATTRIBUTION_DAYS * DAY_MS
/** The largest time a Date can hold. */
const MAX_DATE_MS = 8.64e15
const BASE36 = /^(0|[1-9a-z][0-9a-z]{0,10})$/

export interface Handoff {
  code: string
  visitorId: string
  /** When the code was captured, in ms. */
  capturedAt: number
  /** When the visitor was handed off, in ms. */
  handoffAt: number
  /** Carried before consent: its click is not recorded yet. */
  carried?: boolean | undefined
}

/** What an arrival's `ref_handoff` gives the widget that reads it. */
export type HandoffArrival =
  /**
   * A fresh hand-off, adopted as it is (`capturedAt` as ISO text, as getAttribution() has it);
   * `carried`: carried before consent, its click still to record.
   */
  | { code: string; visitorId: string; capturedAt: string; carried: boolean }
  /** An older or otherwise unusable one whose code can be read: an ordinary arrival by it. */
  | { code: string; visitorId?: undefined; capturedAt?: undefined; carried?: undefined }

const isTime = (ms: number) => Number.isSafeInteger(ms) && ms >= 0 && ms <= MAX_DATE_MS

/** The parameter's value for a hand-off, or null when a field is outside the contract. */
export function encodeHandoff(handoff: Handoff): string | null {
  const { code, visitorId, capturedAt, handoffAt, carried } = handoff
  if (
    typeof code !== 'string' ||
    !CODE_PATTERN.test(code) ||
    typeof visitorId !== 'string' ||
    !CLIENT_ID_PATTERN.test(visitorId) ||
    !isTime(capturedAt) ||
    !isTime(handoffAt)
  ) {
    return null
  }
  const times = `${capturedAt.toString(36)}.${handoffAt.toString(36)}`
  return `${carried ? CARRIED_VERSION : HANDOFF_VERSION}.${code}.${visitorId}.${times}`
}

/**
 * The code of a hand-off in `href`, read without the rest: what a page without the reader (the
 * script tag's outbound part, left out where the address carries no hand-off) makes of one in an
 * arrival an earlier page kept: an ordinary arrival by that code, as of a stale hand-off.
 */
export function handoffCode(href: string): HandoffArrival | null {
  const code = /[?&]ref_handoff=[hc]1\.([A-Za-z0-9]{8,12})\./.exec(href)?.[1]
  return code ? { code } : null
}

/** A time part: canonical base 36, else NaN (which no bound below accepts). */
const timeOf = (text: string) => (BASE36.test(text) ? Number.parseInt(text, 36) : Number.NaN)

/**
 * What the `ref_handoff` of an arrival at `href` means at `now`. Adopted as it is: exactly the
 * shape encodeHandoff writes, handed off within the last 30 minutes (and not more than a minute
 * ahead of `now`), of a capture no later than the hand-off (the same minute of tolerance) and no
 * older than the longest window (365 days). Any other value whose version and code can be read
 * (`h1.<code>.…`, `c1.<code>.…`) is an ordinary arrival by that code; anything else (none,
 * garbage) is null.
 * Never throws.
 */
export function handoffArrival(href: string, now: number): HandoffArrival | null {
  let value: unknown
  try {
    value = new URL(href).searchParams.get(HANDOFF_PARAM)
  } catch {}
  if (typeof value !== 'string') return null
  const parts = value.slice(0, MAX_HANDOFF_LENGTH + 1).split('.')
  const [version, code = '', visitorId = '', captured = '', handedOff = ''] = parts
  const carried = version === CARRIED_VERSION
  if ((version !== HANDOFF_VERSION && !carried) || !CODE_PATTERN.test(code)) return null
  const capturedAt = timeOf(captured)
  const handoffAt = timeOf(handedOff)
  return value.length <= MAX_HANDOFF_LENGTH &&
    parts.length === 5 &&
    CLIENT_ID_PATTERN.test(visitorId) &&
    now - handoffAt <= HANDOFF_FRESH_MS &&
    handoffAt - now <= TOLERANCE_MS &&
    capturedAt - handoffAt <= TOLERANCE_MS &&
    now - capturedAt <= MAX_AGE_MS
    ? { code, visitorId, capturedAt: new Date(capturedAt).toISOString(), carried }
    : { code }
}
