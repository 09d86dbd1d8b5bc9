// Mints the user token a site's server gives its signed-in user's page (CONTRACT.md "User
// tokens"). Web Crypto only, so it runs the same on Node 20+, Deno, Bun and edge workers.
import { KEY_PATTERN, MAX_USER_TOKEN_LIFETIME_SECONDS, REFERRER_ID_PATTERN } from '../api/wire.ts'
import { refuseInPage, ServerConfigError } from './errors.ts'

export interface SignUserTokenOptions {
  /** The organization's secret key (`sk_test_…` or `sk_live_…`) of the mode the page uses. */
  secretKey: string
  /** The signed-in user, as the page passes it as `referrerId`. */
  userId: string
  /** How long the token works: 1 to 86,400 seconds (24 hours). Default 3,600. */
  expiresInSeconds?: number
  /** The current time in milliseconds; for tests. Default `Date.now`. */
  now?: () => number
}

/** A refused option, as the entry's other functions refuse theirs. */
const refused = (option: string, message: string) =>
  new ServerConfigError(option, `[referral] signUserToken: ${message}`)

const quote = (value: unknown) => {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value)
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

function checkSecretKey(secretKey: unknown): string {
  // The key itself never goes into a message: it could end up in a log.
  if (typeof secretKey !== 'string' || !KEY_PATTERN.test(secretKey)) {
    throw refused(
      'secretKey',
      'secretKey must be a secret key such as sk_live_… (sk_, the mode, then 4-64 letters or digits).',
    )
  }
  if (secretKey.startsWith('pk_')) {
    throw refused(
      'secretKey',
      'secretKey is a public key (pk_…); tokens are signed with the secret key (sk_…) of the same organization and mode.',
    )
  }
  return secretKey
}

function checkUserId(userId: unknown): string {
  if (typeof userId !== 'string' || !REFERRER_ID_PATTERN.test(userId)) {
    throw refused(
      'userId',
      `userId must be 1-128 characters of letters, digits and _ . : @ -, not ${quote(userId)}.`,
    )
  }
  return userId
}

function checkLifetime(expiresInSeconds: unknown): number {
  if (
    !Number.isInteger(expiresInSeconds) ||
    (expiresInSeconds as number) < 1 ||
    (expiresInSeconds as number) > MAX_USER_TOKEN_LIFETIME_SECONDS
  ) {
    throw refused(
      'expiresInSeconds',
      `expiresInSeconds must be a whole number from 1 to ${MAX_USER_TOKEN_LIFETIME_SECONDS} (24 hours), not ${quote(expiresInSeconds)}.`,
    )
  }
  return expiresInSeconds as number
}

function subtleCrypto(): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle
  if (!subtle) {
    throw refused(
      'crypto',
      'Web Crypto (globalThis.crypto.subtle) is not available here; use Node 20 or later, Deno, Bun or an edge runtime.',
    )
  }
  return subtle
}

/** Base64url without padding, as the contract writes both parts of a token. */
function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * A user token for `userId`, signed with `secretKey`: give it to that user's page (never the
 * key). Refuses a public key, a malformed key or user id, and a lifetime outside 1-86,400 s.
 */
export async function signUserToken(options: SignUserTokenOptions): Promise<string> {
  refuseInPage('signUserToken', 'Mint the token on your server and pass it to the page.')
  if (typeof options !== 'object' || options === null) {
    throw refused('options', 'pass { secretKey, userId, expiresInSeconds? }.')
  }
  const secretKey = checkSecretKey(options.secretKey)
  const userId = checkUserId(options.userId)
  const lifetime = checkLifetime(options.expiresInSeconds ?? 3600)
  const now = (options.now ?? Date.now)()
  if (!Number.isFinite(now)) {
    throw refused('now', `now() must return milliseconds, not ${quote(now)}.`)
  }
  const subtle = subtleCrypto()

  const encoder = new TextEncoder()
  const exp = Math.floor(now / 1000) + lifetime
  const payload = base64url(encoder.encode(JSON.stringify({ userId, exp })))
  const signed = `v1.${payload}`
  const key = await subtle.importKey(
    'raw',
    encoder.encode(secretKey),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const signature = new Uint8Array(await subtle.sign('HMAC', key, encoder.encode(signed)))
  return `${signed}.${base64url(signature)}`
}
