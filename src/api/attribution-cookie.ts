// The wire form of the attribution cookie, shared by the widget (which writes it) and the
// site's backend (referral-widget/server, which reads it). No DOM, no dependency beyond the
// contract's patterns: it runs in a page, on Node, Deno, Bun and edge runtimes.
//
//   referral_attribution=v1.<code>.<visitorId>.<capturedAt>
//
// `capturedAt` is milliseconds since the epoch in base 36 (lower case, no leading zero). Every
// part is made of letters, digits, `_` and `-`, so the value needs no quoting or escaping, and
// `.` cannot occur inside a part. The decoder is strict: one exact shape, or null.
import {
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  MAX_ATTRIBUTION_DAYS,
} from './wire.ts'

export const ATTRIBUTION_COOKIE = 'referral_attribution'
export const ATTRIBUTION_COOKIE_VERSION = 'v1'
/** Longer than any value the encoder can produce (2 + 12 + 64 + 11 + 3 dots = 92). */
export const MAX_ATTRIBUTION_COOKIE_LENGTH = 100

const DAY = 24 * 60 * 60 * 1000
/** A capture more than this far ahead of the reader's clock is not believed (the widget's rule). */
const FUTURE_TOLERANCE_MS = DAY
/** No campaign's window is longer, so an older capture can credit nothing. */
const MAX_AGE_MS = MAX_ATTRIBUTION_DAYS * DAY
/** The largest time a Date can hold. */
const MAX_DATE_MS = 8.64e15
const BASE36 = /^(0|[1-9a-z][0-9a-z]{0,10})$/

/** What the cookie carries; `capturedAt` as `getAttribution()` gives it (ISO 8601, UTC). */
export interface AttributionValue {
  code: string
  visitorId: string
  capturedAt: string
}

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
 * The cookie value for an attribution. `capturedAt` is the ISO text `getAttribution()` gives, or
 * milliseconds since the epoch. Throws AttributionCookieError for a field outside the contract.
 */
export function encodeAttribution(attribution: {
  code: string
  visitorId: string
  capturedAt: string | number
}): string {
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
  return `${ATTRIBUTION_COOKIE_VERSION}.${code}.${visitorId}.${ms.toString(36)}`
}

export interface DecodeOptions {
  /** The reader's clock, for refusing captures in the future or too old; default Date.now. */
  now?: number
}

/**
 * The attribution in a cookie value, or null for anything but the exact shape encodeAttribution
 * writes: another version, a missing or extra part, a code or visitor id outside the contract, a
 * time that is not canonical base 36, beyond the Date range, more than a day ahead of `now` or
 * older than the longest attribution window (365 days). Never throws.
 */
export function decodeAttribution(
  value: string | null | undefined,
  options: DecodeOptions = {},
): AttributionValue | null {
  if (typeof value !== 'string' || value.length > MAX_ATTRIBUTION_COOKIE_LENGTH) return null
  const parts = value.split('.')
  if (parts.length !== 4) return null
  const [version, code = '', visitorId = '', time = ''] = parts
  if (version !== ATTRIBUTION_COOKIE_VERSION) return null
  if (!CODE_PATTERN.test(code) || !CLIENT_ID_PATTERN.test(visitorId) || !BASE36.test(time)) {
    return null
  }
  const ms = Number.parseInt(time, 36)
  if (!Number.isSafeInteger(ms) || ms > MAX_DATE_MS) return null
  const now = options.now ?? Date.now()
  if (ms - now > FUTURE_TOLERANCE_MS || now - ms > MAX_AGE_MS) return null
  return { code, visitorId, capturedAt: new Date(ms).toISOString() }
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
