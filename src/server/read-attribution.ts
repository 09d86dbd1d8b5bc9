// Reading the attribution the browser captured: from the cookie the widget writes
// (`cookieDomain`) and the one the site's server keeps (keepAttribution), or from a form field
// carrying `getAttribution()` as JSON.

import { type AttributionValue, withoutRule } from '../api/attribution-cookie.ts'
import { CLIENT_ID_PATTERN, CODE_PATTERN, ISO_TIMESTAMP_PATTERN } from '../api/wire.ts'
import { heldAttribution } from './keep-attribution.ts'

export type Attribution = AttributionValue

/** Longer than any JSON form of a valid attribution. */
const MAX_FIELD_LENGTH = 512

export interface ReadOptions {
  /** The clock, in milliseconds; default Date.now. */
  now?: number
}

/**
 * The attribution in a Cookie request header (`request.headers.get('cookie')`): the one the
 * server keeps (keepAttribution) and the widget's, read as the site's rule says; null when there
 * is none, or it is malformed, oversized, forged or past its campaign's window. Never throws.
 */
export function readAttribution(
  cookieHeader: string | null | undefined,
  options: ReadOptions = {},
): Attribution | null {
  try {
    return withoutRule(heldAttribution(cookieHeader, options.now ?? Date.now()))
  } catch {
    return null // nothing above throws; a caller's request handler must never fail here
  }
}

/**
 * An attribution posted by the page (`JSON.stringify(Referral.getAttribution())` in a hidden
 * form field, say), as text or as an already parsed object; null for anything but exactly
 * `{ code, visitorId, capturedAt }` within the contract. Never throws.
 */
export function parseAttribution(value: unknown): Attribution | null {
  let candidate = value
  if (typeof value === 'string') {
    if (value.length > MAX_FIELD_LENGTH) return null
    try {
      candidate = JSON.parse(value)
    } catch {
      return null
    }
  }
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) return null
  const fields = candidate as Record<string, unknown>
  if (Object.keys(fields).sort().join() !== 'capturedAt,code,visitorId') return null
  const { code, visitorId, capturedAt } = fields
  if (typeof code !== 'string' || !CODE_PATTERN.test(code)) return null
  if (typeof visitorId !== 'string' || !CLIENT_ID_PATTERN.test(visitorId)) return null
  if (typeof capturedAt !== 'string' || !ISO_TIMESTAMP_PATTERN.test(capturedAt)) return null
  if (Number.isNaN(Date.parse(capturedAt))) return null
  return { code, visitorId, capturedAt }
}
