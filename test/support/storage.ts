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

/** Characters a storage holds, keys included, as browsers count their quota. */
export function storedChars(storage: StorageLike, prefix = ''): number {
  let chars = 0
  for (const key of storageKeys(storage))
    if (key.startsWith(prefix)) chars += key.length + (storage.getItem(key) ?? '').length
  return chars
}

/** localStorage with a browser's quota: a write that would pass `quota` characters throws. */
export function withQuota(storage: StorageLike, quota: number): StorageLike {
  return {
    get length() {
      return storage.length
    },
    key: (index) => storage.key(index),
    getItem: (key) => storage.getItem(key),
    setItem: (key, value) => {
      const before = storage.getItem(key)
      const grows = key.length + value.length - (before === null ? 0 : key.length + before.length)
      if (storedChars(storage) + grows > quota)
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
      storage.setItem(key, value)
    },
    removeItem: (key) => storage.removeItem(key),
  }
}

/**
 * Storage whose calls throw when `fails()` says so (a hiccup, a flaky disk, an extension in the
 * way): reads, listings and writes alike.
 */
export function flaky(storage: StorageLike, fails: () => boolean): StorageLike {
  const hiccup = () => {
    if (fails()) throw new DOMException('The operation failed.', 'UnknownError')
  }
  return {
    get length() {
      hiccup()
      return storage.length
    },
    key: (index) => {
      hiccup()
      return storage.key(index)
    },
    getItem: (key) => {
      hiccup()
      return storage.getItem(key)
    },
    setItem: (key, value) => {
      hiccup()
      storage.setItem(key, value)
    },
    removeItem: (key) => {
      hiccup()
      storage.removeItem(key)
    },
  }
}
