// Checks a user token (CONTRACT.md "User tokens"): its shape, its signature against every
// working secret key of the caller's organization and mode, then its payload and its expiry.
import { timingSafeEqual } from 'node:crypto'
import * as z from 'zod/mini'
import { iso, MINUTE, SECOND } from './clock.ts'
import { ServiceError } from './errors.ts'
import type { KeyRegistry, Scope } from './keys.ts'
import {
  MAX_USER_TOKEN_LENGTH,
  MAX_USER_TOKEN_LIFETIME_SECONDS,
  REFERRER_ID_PATTERN,
  USER_TOKEN_PATTERN,
} from './schemas.ts'

/** Clocks differ: a token minted for the full 24 hours by a server a little ahead still passes. */
export const USER_TOKEN_CLOCK_SKEW = MINUTE

/** Where the token came from, for the messages and `param`. */
export type TokenSource = 'body' | 'header'

const PARAM: Record<TokenSource, string | undefined> = { body: 'userToken', header: undefined }
const NAMED: Record<TokenSource, string> = {
  body: 'userToken',
  header: 'The Referral-User-Token header',
}

const tokenError = (source: TokenSource, code: string, message: string) =>
  new ServiceError(401, 'authentication_error', code, message, PARAM[source])

export const userTokenRequired = (source: TokenSource, why: string) =>
  tokenError(
    source,
    'user_token_required',
    `${why} Send ${source === 'body' ? '"userToken" in the body' : 'the Referral-User-Token header'}: the referrer's user token, minted on your server with signUserToken.`,
  )

export const userTokenMismatch = (source: TokenSource, whose: string) =>
  new ServiceError(
    403,
    'permission_error',
    'user_token_mismatch',
    `The user token was issued for another user than ${whose}.`,
    PARAM[source],
  )

/** The payload, exactly: no other field, a user id of the referrer id's shape, whole seconds. */
const Payload = z.strictObject({
  userId: z.string().check(z.regex(REFERRER_ID_PATTERN)),
  exp: z.int().check(z.positive()),
})

/** An HMAC-SHA256. */
const SIGNATURE_BYTES = 32

/** Base64url as the contract writes it: the decoded bytes give back the very same text. */
function decodeStrict(part: string): Buffer | undefined {
  const bytes = Buffer.from(part, 'base64url')
  return bytes.toString('base64url') === part ? bytes : undefined
}

export interface VerifiedUserToken {
  userId: string
  /** Expiry, in milliseconds since the epoch. */
  expiresAt: number
}

/**
 * The user behind `token`, or the contract's 401: `user_token_invalid` for a bad shape, a
 * signature no working secret key of `scope` makes, a bad payload or an expiry more than 24
 * hours ahead; `user_token_expired` for a genuine token past its `exp`. Nothing of the token is
 * repeated in a message.
 */
export async function verifyUserToken(
  token: string,
  scope: Scope,
  keys: KeyRegistry,
  now: number,
  source: TokenSource,
): Promise<VerifiedUserToken> {
  const invalid = (why: string) =>
    tokenError(source, 'user_token_invalid', `${NAMED[source]} is not a valid user token: ${why}.`)

  const shape = token.length <= MAX_USER_TOKEN_LENGTH ? USER_TOKEN_PATTERN.exec(token) : null
  const payloadText = shape?.[1]
  const payloadBytes = payloadText === undefined ? undefined : decodeStrict(payloadText)
  const given = shape?.[2] === undefined ? undefined : decodeStrict(shape[2])
  if (payloadBytes === undefined || given?.length !== SIGNATURE_BYTES) {
    throw invalid(
      `expected v1.<payload>.<signature> in base64url without padding, at most ${MAX_USER_TOKEN_LENGTH} characters`,
    )
  }

  // Every working key is tried and compared in constant time, with no early exit: how long
  // this takes says nothing about which key (if any) signed the token.
  const signed = new TextEncoder().encode(`v1.${payloadText}`)
  let genuine = false
  for (const key of await keys.signingKeys(scope)) {
    const expected = Buffer.from(await globalThis.crypto.subtle.sign('HMAC', key, signed))
    if (timingSafeEqual(expected, given)) genuine = true
  }
  if (!genuine) {
    throw invalid(
      'its signature matches no working secret key of this organization and mode (a key rolled more than 24 hours ago no longer signs)',
    )
  }

  let json: unknown
  try {
    json = JSON.parse(payloadBytes.toString('utf8'))
  } catch {
    json = undefined
  }
  const payload = Payload.safeParse(json)
  if (!payload.success) {
    throw invalid(
      'its payload must be the JSON {"userId": "<referrer id>", "exp": <whole seconds since the epoch>} and nothing else',
    )
  }

  const expiresAt = payload.data.exp * SECOND
  if (expiresAt <= now) {
    throw tokenError(
      source,
      'user_token_expired',
      `The user token expired at ${iso(expiresAt)}; mint a new one on your server.`,
    )
  }
  if (expiresAt > now + MAX_USER_TOKEN_LIFETIME_SECONDS * SECOND + USER_TOKEN_CLOCK_SKEW) {
    throw invalid('its exp is more than 24 hours ahead; tokens live 24 hours at most')
  }
  return { userId: payload.data.userId, expiresAt }
}
