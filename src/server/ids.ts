// Ids derived from the site's user id, a purchase's order id or a refund's id, so that every call
// for one user, order or refund names the same event and the service counts it once, however often it is
// retried or repeated.

const encoder = new TextEncoder()

/** base64url without padding of the SHA-256 digest of `text` (Web Crypto: every runtime). */
async function digest(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle
  if (!subtle) throw new Error('[referral] Web Crypto (crypto.subtle) is not available here.')
  const bytes = new Uint8Array(await subtle.digest('SHA-256', encoder.encode(text)))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * The signup event's id for a user: `su_` and 43 characters, inside the contract's client-id
 * pattern. A prefix of its own keeps it apart from the widget's random `e_` ids.
 */
export async function signupEventId(userId: string): Promise<string> {
  return `su_${await digest(`referral-signup:${userId}`)}`
}

/** The visitor id for a signup that arrives without an attribution: stable per user. */
export async function userVisitorId(userId: string): Promise<string> {
  return `vu_${(await digest(`referral-visitor:${userId}`)).slice(0, 32)}`
}

/**
 * A purchase's event id: `pu_` and 43 characters. From the order id, the purchase's idempotency
 * key, so a retried call names the same event.
 */
export async function purchaseEventId(orderId: string): Promise<string> {
  return `pu_${await digest(`referral-purchase:${orderId}`)}`
}

/**
 * A refund's event id: `rf_` and 43 characters. From the refund's own id (the provider's refund
 * or event id), the refund's idempotency key: the same refund delivered again names the same event.
 */
export async function refundEventId(refundId: string): Promise<string> {
  return `rf_${await digest(`referral-refund:${refundId}`)}`
}
