import { KEY_PATTERN } from '../api/wire.ts'
import { ConfigError } from '../shared/errors.ts'
import { shortHash } from './short-hash.ts'

export type Mode = 'test' | 'live'

export interface PublicKey {
  key: string
  mode: Mode
  /** A short hash of the key: storage keys carry it, never the key itself. */
  hash: string
}

/** Accepts a pk_test_/pk_live_ key of the contract's shape, or throws a ConfigError saying why. */
export function parsePublicKey(key: unknown, option = 'publicKey'): PublicKey {
  if (key === undefined || key === null || key === '') {
    throw new ConfigError(
      option,
      `A public key is required (${option}): pk_test_... or pk_live_....`,
    )
  }
  if (typeof key !== 'string') {
    throw new ConfigError(
      option,
      `${option} must be a string such as pk_test_..., not ${typeof key}.`,
    )
  }
  const match = KEY_PATTERN.exec(key.trim())
  if (key.trim().startsWith('sk_')) {
    throw new ConfigError(
      option,
      'This is a secret key (sk_...). Secret keys must never reach a browser: use your public key (pk_test_... or pk_live_...) and roll the secret key now.',
    )
  }
  if (match?.[1] !== 'pk') {
    throw new ConfigError(
      option,
      `${option} is not a valid public key: expected pk_test_ or pk_live_ followed by 4-64 letters or digits.`,
    )
  }
  const clean = key.trim()
  return { key: clean, mode: match[2] as Mode, hash: shortHash(clean) }
}
