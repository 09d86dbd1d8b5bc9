import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { DAY } from './clock.ts'
import { ServiceError } from './errors.ts'
import { KEY_PATTERN } from './schemas.ts'

export type Mode = 'test' | 'live'
export type KeyKind = 'pk' | 'sk'

/** Whose data a request may touch: one organization in one mode. */
export interface Scope {
  org: string
  mode: Mode
}

export interface ApiKey extends Scope {
  kind: KeyKind
  /** Set when the key was rolled: it stops working at this time. */
  expiresAt?: number
}

export const ROLLED_KEY_LIFETIME = DAY

/** Keys are stored by their SHA-256 digest: the registry never holds a key in clear. */
const digest = (key: string) => createHash('sha256').update(key).digest('hex')

/**
 * The record whose digest equals `candidate`, found by comparing it with every stored digest in
 * constant time and without stopping at a match: how long it takes says nothing about the key.
 */
function findConstantTime(keys: Map<string, ApiKey>, candidate: string): ApiKey | undefined {
  const wanted = Buffer.from(candidate, 'hex')
  let found: ApiKey | undefined
  for (const [stored, record] of keys) {
    if (timingSafeEqual(Buffer.from(stored, 'hex'), wanted)) found = record
  }
  return found
}

const authError = (code: string, message: string) =>
  new ServiceError(401, 'authentication_error', code, message)

/**
 * A secret key as the HMAC key that checks user tokens: non-extractable, so nothing can read
 * the key back from it.
 */
const hmacKey = (key: string) =>
  globalThis.crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )

export function createKeyRegistry(now: () => number) {
  const keys = new Map<string, ApiKey>()
  /** Per secret key's digest: its HMAC key, for user tokens (user-tokens.ts). */
  const signers = new Map<string, Promise<CryptoKey>>()
  const isLive = (record: ApiKey) => record.expiresAt === undefined || now() < record.expiresAt
  const add = (key: string, record: ApiKey) => {
    keys.set(digest(key), record)
    if (record.kind === 'sk') signers.set(digest(key), hmacKey(key))
  }

  return {
    add,

    /**
     * The HMAC keys of every secret key of `scope` that works now, a rolled one during its 24
     * hours included: a user token signed with any of them is genuine.
     */
    async signingKeys(scope: Scope): Promise<CryptoKey[]> {
      const found: Promise<CryptoKey>[] = []
      for (const [hash, record] of keys) {
        const signer = signers.get(hash)
        if (signer && record.org === scope.org && record.mode === scope.mode && isLive(record)) {
          found.push(signer)
        }
      }
      return Promise.all(found)
    },

    /** The key's record, or the contract's 401. */
    authenticate(key: string | undefined): ApiKey {
      if (key === undefined || key === '') {
        throw authError(
          'missing_api_key',
          'No API key was sent. Send it as "Authorization: Bearer <key>".',
        )
      }
      // A malformed key is refused the same way, after the same work.
      const record = findConstantTime(keys, digest(key))
      if (!record || !KEY_PATTERN.test(key))
        throw authError('invalid_api_key', 'The API key is not valid.')
      if (record.expiresAt !== undefined && now() >= record.expiresAt) {
        throw authError(
          'expired_api_key',
          'The API key was rolled more than 24 hours ago and no longer works. Use the new key.',
        )
      }
      return record
    },

    /**
     * Rolls a key as the dashboard would: a new key of the same kind, organization and mode
     * works at once; the old one keeps working for 24 hours. Returns the new key.
     */
    roll(key: string, rolledAt = now()): string {
      const record = keys.get(digest(key))
      if (!record) throw new Error('Unknown key.')
      const fresh = `${record.kind}_${record.mode}_${randomBytes(18).toString('base64url').replace(/[-_]/g, '')}`
      add(fresh, { org: record.org, mode: record.mode, kind: record.kind })
      const expiresAt = rolledAt + ROLLED_KEY_LIFETIME
      if (record.expiresAt === undefined || record.expiresAt > expiresAt)
        record.expiresAt = expiresAt
      return fresh
    },

    clear() {
      keys.clear()
      signers.clear()
    },
  }
}

export type KeyRegistry = ReturnType<typeof createKeyRegistry>
