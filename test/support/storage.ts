// What several delivery tests need: a repeatable random source, and a look into the widget's
// storage as a test sees it (the keys, the key namespace).
import type { StorageLike } from '../../src/queue/storage.ts'

/** A deterministic uniform [0, 1) source (mulberry32): ids stay distinct, timings repeat. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

/** All keys of a Web Storage-like object. */
export function storageKeys(storage: StorageLike): string[] {
  const keys: string[] = []
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i)
    if (key !== null) keys.push(key)
  }
  return keys
}

/** The widget's namespace (`referral:test:<hash>:`), read from the keys it wrote. */
export function namespaceOf(storage: StorageLike): string {
  const found = storageKeys(storage)
    .map((key) => /^(referral:test:[^:]+:)/.exec(key)?.[1])
    .find((prefix) => prefix !== undefined)
  if (found === undefined) throw new Error('the widget wrote no referral:test: key')
  return found
}
