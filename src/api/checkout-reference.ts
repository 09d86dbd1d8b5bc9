// The checkout reference (WIDGET.md section 13): the referral as it travels through a payment
// provider's checkout and back to the site's server in the provider's webhook.
//
//   r1-<code>-<visitorId>-<check>
//
// `check` is the first 8 lower-case hex characters of SHA-256 over `r1-<code>-<visitorId>`. It is
// no signature (anyone can compute it, and the referral is the visitor's own to carry): it makes a
// reference mangled on its way (a character changed, dropped or doubled) fail to read instead of
// naming another referral. Every character is one of Stripe's `client_reference_id` alphabet
// (A-Z a-z 0-9 _ -) and the longest is 89, under its 200. Shared by the widget, which writes it
// on checkout links, and by referral-widget/server, which reads it: Web Crypto only, no DOM.

import { CLIENT_ID_PATTERN, CODE_PATTERN } from './wire.ts'

const VERSION = 'r1'
const REFERENCE_PATTERN = /^r1-([A-Za-z0-9]{8,12})-([A-Za-z0-9_-]{8,64})-([0-9a-f]{8})$/
/** Any version's prefix: a later format is told apart from a mangled one. */
const VERSIONED = /^r[0-9]+-/
/** Longer than any reference of this version; a longer text is not read at all. */
const MAX_LENGTH = 200

export type CheckoutReferenceProblem =
  /** Nothing there: no value, null, or an empty string. */
  | 'absent'
  /** `rN-` with N other than 1: written by a later widget than this reader. */
  | 'unknown_version'
  /** Not of the format: another value in the slot, a cut or padded reference. */
  | 'malformed'
  /** Of the format, but its check does not match: changed on its way. */
  | 'check_failed'

/** What a reference that reads carries: the referral of the visitor who checked out. */
export interface CheckoutReferral {
  code: string
  visitorId: string
}

const encoder = new TextEncoder()

/** The check of `r1-<code>-<visitorId>`, or null where Web Crypto is missing. */
async function checkOf(body: string): Promise<string | null> {
  // Pages served over plain http (other than localhost) have no crypto.subtle.
  const subtle = globalThis.crypto?.subtle
  if (!subtle) return null
  const digest = new Uint8Array(await subtle.digest('SHA-256', encoder.encode(body)))
  let hex = ''
  for (const byte of digest.subarray(0, 4)) hex += byte.toString(16).padStart(2, '0')
  return hex
}

/**
 * The checkout reference of a referral: `r1-<code>-<visitorId>-<check>`. Null when `code` is not
 * a referral code (8-12 letters or digits) or `visitorId` not a visitor id (8-64 of
 * `A-Z a-z 0-9 _ -`), and where Web Crypto is unavailable (a page on plain http).
 */
export async function makeCheckoutReference(
  code: string,
  visitorId: string,
): Promise<string | null> {
  if (typeof code !== 'string' || !CODE_PATTERN.test(code)) return null
  if (typeof visitorId !== 'string' || !CLIENT_ID_PATTERN.test(visitorId)) return null
  const body = `${VERSION}-${code}-${visitorId}`
  const check = await checkOf(body)
  return check === null ? null : `${body}-${check}`
}

/**
 * Reads a checkout reference strictly: the referral it carries, or why it carries none. Never
 * throws for any value; rejects only where Web Crypto is unavailable (no server runtime lacks it).
 */
export async function readCheckoutReference(
  text: unknown,
): Promise<CheckoutReferral | { problem: CheckoutReferenceProblem }> {
  if (text === undefined || text === null || text === '') return { problem: 'absent' }
  if (typeof text !== 'string' || text.length > MAX_LENGTH) return { problem: 'malformed' }
  const parts = REFERENCE_PATTERN.exec(text)
  if (!parts) {
    const other = VERSIONED.test(text) && !text.startsWith(`${VERSION}-`)
    return { problem: other ? 'unknown_version' : 'malformed' }
  }
  const [, code = '', visitorId = '', check] = parts
  const expected = await checkOf(`${VERSION}-${code}-${visitorId}`)
  if (expected === null) {
    throw new Error('[referral] Web Crypto (crypto.subtle) is not available here.')
  }
  return check === expected ? { code, visitorId } : { problem: 'check_failed' }
}
