// The wire form of the attribution cookie, shared by the widget (which writes it) and the
// site's backend (referral-widget/server, which reads it). No DOM, no dependency beyond the
// contract's patterns: it runs in a page, on Node, Deno, Bun and edge runtimes.
//
//   referral_attribution=v2.<code>.<visitorId>.<capturedAt>.<window>.<rule>
//
// `capturedAt` is milliseconds since the epoch in base 36 (lower case, no leading zero);
// `window` the campaign's attribution window in days, base 36 (30 where no page knew it); `rule`
// `l` (the last referral counts) or `f` (the first, within its window). The site's server keeps
// the referral by these (referral-widget/server's keepAttribution). Cookies written before the
// window was carried (`v1.<code>.<visitorId>.<capturedAt>`) are read as 30 days, last touch.
// Every part is made of letters, digits, `_` and `-`, so the value needs no quoting or escaping,
// and `.` cannot occur inside a part. The decoder is strict: one exact shape, or null.

import { DAY_MS } from '../shared/timers.ts'
import {
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  MAX_ATTRIBUTION_DAYS,
} from './wire.ts'

export const ATTRIBUTION_COOKIE = 'referral_attribution'
export const ATTRIBUTION_COOKIE_VERSION = 'v2'
/** The version written before the window and rule were carried: read as 30 days, last touch. */
const WITHOUT_RULE_VERSION = 'v1'
/** Longer than any value the encoder can produce (2 + 12 + 64 + 11 + 2 + 1 + 5 dots = 97). */
export const MAX_ATTRIBUTION_COOKIE_LENGTH = 110
/** The window of a referral no page knew the campaign of, in days. */
export const UNKNOWN_WINDOW_DAYS = 30

/** A capture more than this far ahead of the reader's clock is not believed (the widget's rule). */
const FUTURE_TOLERANCE_MS = DAY_MS
/** No campaign's window is longer, so an older capture can credit nothing. */
const MAX_AGE_MS = MAX_ATTRIBUTION_DAYS * DAY_MS
/** The largest time a Date can hold. */
const MAX_DATE_MS = 8.64e15
const BASE36 = /^(0|[1-9a-z][0-9a-z]{0,10})$/

/** What the cookie carries; `capturedAt` as `getAttribution()` gives it (ISO 8601, UTC). */
export interface AttributionValue {
  code: string
  visitorId: string
  capturedAt: string
}

/** How long a referral counts, and which one: the campaign's window and the site's rule. */
export interface AttributionRule {
  /** The campaign's attribution window, in whole days (1 to 365). */
  windowDays: number
  /** The first referral within its window counts (data-attribution="first"); else the last. */
  firstTouch: boolean
}

/** An attribution with the rule it is held by. */
export type HeldAttribution = AttributionValue & AttributionRule

/** The attribution given to the encoder is not one the decoder would accept. */
export class AttributionCookieError extends Error {
  override name = 'AttributionCookieError'
  constructor(
    /** The field at fault: `code`, `visitorId` or `capturedAt`. */
    readonly field: keyof AttributionValue,
    message: string,
  ) {
    super(message)
  }
}

function capturedAtMs(value: unknown): number {
  let ms = Number.NaN
  if (typeof value === 'number') ms = value
  // Only the contract's timestamp form: Date.parse also takes text such as "1" or "May 5".
  else if (typeof value === 'string' && ISO_TIMESTAMP_PATTERN.test(value)) ms = Date.parse(value)
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > MAX_DATE_MS) return Number.NaN
  return ms
}

/**
 * The cookie value for an attribution, held by `rule` (v2), or without one (v1, read as 30 days,
 * last touch). `capturedAt` is the ISO text `getAttribution()` gives, or milliseconds since the
 * epoch. Throws AttributionCookieError for a field outside the contract.
 */
export function encodeAttribution(
  attribution: { code: string; visitorId: string; capturedAt: string | number },
  rule?: AttributionRule,
): string {
  const { code, visitorId, capturedAt } = attribution
  if (typeof code !== 'string' || !CODE_PATTERN.test(code)) {
    throw new AttributionCookieError('code', 'code must be 8-12 letters or digits.')
  }
  if (typeof visitorId !== 'string' || !CLIENT_ID_PATTERN.test(visitorId)) {
    throw new AttributionCookieError(
      'visitorId',
      'visitorId must be 8-64 letters, digits, "_" or "-".',
    )
  }
  const ms = capturedAtMs(capturedAt)
  if (Number.isNaN(ms)) {
    throw new AttributionCookieError(
      'capturedAt',
      'capturedAt must be an ISO 8601 time or whole milliseconds since 1970, within the Date range.',
    )
  }
  const parts = `${code}.${visitorId}.${ms.toString(36)}`
  if (!rule) return `${WITHOUT_RULE_VERSION}.${parts}`
  const days = Math.min(Math.max(Math.round(rule.windowDays), 1), MAX_ATTRIBUTION_DAYS)
  return `${ATTRIBUTION_COOKIE_VERSION}.${parts}.${(Number.isFinite(days) ? days : UNKNOWN_WINDOW_DAYS).toString(36)}.${rule.firstTouch ? 'f' : 'l'}`
}

export interface DecodeOptions {
  /** The reader's clock, for refusing captures in the future or too old; default Date.now. */
  now?: number
}

/**
 * The attribution in a cookie value, or null for anything but the exact shape encodeAttribution
 * writes: another version, a missing or extra part, a code or visitor id outside the contract, a
 * time that is not canonical base 36, beyond the Date range, more than a day ahead of `now` or
 * past its window (a v1 value: older than the longest attribution window, 365 days). Never throws.
 */
export function decodeAttribution(
  value: string | null | undefined,
  options: DecodeOptions = {},
): AttributionValue | null {
  return withoutRule(decodeHeld(value, options))
}

/** The attribution alone, the rule it is held by left out. */
export const withoutRule = (held: HeldAttribution | null): AttributionValue | null =>
  held && { code: held.code, visitorId: held.visitorId, capturedAt: held.capturedAt }

/** decodeAttribution, with the rule the value carries (v1: 30 days, last touch). */
export function decodeHeld(
  value: string | null | undefined,
  options: DecodeOptions = {},
): HeldAttribution | null {
  if (typeof value !== 'string' || value.length > MAX_ATTRIBUTION_COOKIE_LENGTH) return null
  const parts = value.split('.')
  const [version, code = '', visitorId = '', time = '', window = '', rule = ''] = parts
  const v2 = version === ATTRIBUTION_COOKIE_VERSION && parts.length === 6
  if (!v2 && !(version === WITHOUT_RULE_VERSION && parts.length === 4)) return null
  if (!CODE_PATTERN.test(code) || !CLIENT_ID_PATTERN.test(visitorId) || !BASE36.test(time)) {
    return null
  }
  const days = v2 ? Number.parseInt(window, 36) : UNKNOWN_WINDOW_DAYS
  if (v2 && (!/^[1-9a-z][0-9a-z]?$/.test(window) || days > MAX_ATTRIBUTION_DAYS)) return null
  if (v2 && rule !== 'f' && rule !== 'l') return null
  const ms = Number.parseInt(time, 36)
  if (!Number.isSafeInteger(ms) || ms > MAX_DATE_MS) return null
  const now = options.now ?? Date.now()
  if (ms - now > FUTURE_TOLERANCE_MS || now - ms > (v2 ? days * DAY_MS : MAX_AGE_MS)) return null
  return {
    code,
    visitorId,
    capturedAt: new Date(ms).toISOString(),
    windowDays: days,
    firstTouch: rule === 'f',
  }
}

/**
 * Every value of the cookie `name` in a Cookie request header, in header order (quotes of a
 * quoted value removed). Browsers send one name several times when cookies of several domains
 * or paths match, so there may be more than one.
 */
export function cookieValues(header: string | null | undefined, name: string): string[] {
  if (typeof header !== 'string') return []
  const values: string[] = []
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=')
    if (at === -1 || pair.slice(0, at).trim() !== name) continue
    const raw = pair.slice(at + 1).trim()
    values.push(
      raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw,
    )
  }
  return values
}

/**
 * The attribution in a Cookie request header, or null. When the cookie is there more than once
 * (one set on `app.shop.example`, one on `shop.example`), the valid one captured last counts, as
 * the last click does on the service.
 */
export function attributionFromCookieHeader(
  header: string | null | undefined,
  options: DecodeOptions = {},
): AttributionValue | null {
  let found: AttributionValue | null = null
  for (const value of cookieValues(header, ATTRIBUTION_COOKIE)) {
    const attribution = decodeAttribution(value, options)
    if (attribution && (!found || attribution.capturedAt > found.capturedAt)) found = attribution
  }
  return found
}
