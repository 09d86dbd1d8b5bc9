import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { KEY_PATTERN } from './schemas.ts'
import { DAY } from './clock.ts'
import { ServiceError } from './errors.ts'

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

export function createKeyRegistry(now: () => number) {
  const keys = new Map<string, ApiKey>()

  return {
    add(key: string, record: ApiKey) {
      keys.set(digest(key), record)
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
      keys.set(digest(fresh), { org: record.org, mode: record.mode, kind: record.kind })
      const expiresAt = rolledAt + ROLLED_KEY_LIFETIME
      if (record.expiresAt === undefined || record.expiresAt > expiresAt)
        record.expiresAt = expiresAt
      return fresh
    },

    clear() {
      keys.clear()
    },
  }
}

export type KeyRegistry = ReturnType<typeof createKeyRegistry>
