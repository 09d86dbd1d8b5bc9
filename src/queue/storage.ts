import { fromJson } from '../shared/json.ts'
import { warnOnce } from '../shared/log.ts'

/** The part of the Web Storage interface the widget uses. */
export interface StorageLike {
  readonly length: number
  key(index: number): string | null
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/**
 * Storage that never throws. Writes that the backing storage refuses (quota, private modes,
 * blocked storage) are kept in memory instead, with a single warning; with no storage at all,
 * everything lives in memory. `isVolatile` tells which keys only this page holds.
 */
export interface SafeStorage {
  /**
   * The stored text, null when there is none, or undefined when the storage call threw: then
   * nothing is known of the value, and what is stored must be left alone and read again later.
   */
  get(key: string): string | null | undefined
  set(key: string, value: string): void
  remove(key: string): void
  /** Keys that start with `prefix`, from storage and memory. */
  keys(prefix: string): string[]
  isVolatile(key: string): boolean
  /** Whether writes reach a storage that outlives the page (false: none, or the last one threw). */
  durable(): boolean
  /**
   * While held (consent not given), writes stay in memory; reads and removals still reach the
   * storage. `commit()` moves what was held into the storage and writes through from then on.
   */
  hold(): void
  commit(): void
  /** How many times a write reached the storage or memory, for the benchmark and tests. */
  readonly writes: number
  /** How many reads or listings threw: a reader that saw this grow tries again later. */
  readonly failures: number
}

const NO_STORAGE = 'Storage is unavailable: events are kept in memory on this page only.'
const WRITE_REFUSED =
  'Storage refused a write (full or blocked): events wait in memory on this page.'

/**
 * The page's localStorage, or undefined when reading it throws or it does not exist (where there is
 * no such global, reading it throws a ReferenceError).
 */
export function defaultStorage(): StorageLike | undefined {
  try {
    return localStorage
  } catch {
    return undefined
  }
}

/* @__NO_SIDE_EFFECTS__ */
export function createSafeStorage(
  backing: StorageLike | undefined,
  { quiet = false, held = false } = {},
): SafeStorage {
  const memory = new Map<string, string>()
  const store = backing
  let writes = 0
  let failures = 0
  let refused = false
  let holding = held
  if (!store && !quiet) warnOnce(NO_STORAGE)

  const attempt = <T>(action: (storage: StorageLike) => T, fallback: T): T => {
    if (!store) return fallback
    try {
      return action(store)
    } catch {
      failures += 1
      return fallback
    }
  }

  return {
    get: (key) =>
      memory.get(key) ??
      (store ? attempt<string | null | undefined>((s) => s.getItem(key), undefined) : null),
    set: (key, value) => {
      writes += 1
      if (holding) {
        memory.set(key, value)
        return
      }
      const stored = attempt((s) => {
        s.setItem(key, value)
        return true
      }, false)
      refused = !stored
      if (stored) {
        memory.delete(key)
      } else {
        if (store) warnOnce(WRITE_REFUSED)
        memory.set(key, value)
      }
    },
    remove: (key) => {
      memory.delete(key)
      attempt((s) => s.removeItem(key), undefined)
    },
    keys: (prefix) => {
      const found = new Set<string>()
      // One key that cannot be read is left out (and counted), not the rest of the list.
      const length = attempt((s) => s.length, 0)
      for (let i = 0; i < length; i++) {
        const key = attempt((s) => s.key(i), null)
        if (key?.startsWith(prefix)) found.add(key)
      }
      for (const key of memory.keys()) if (key.startsWith(prefix)) found.add(key)
      return [...found]
    },
    isVolatile: (key) => memory.has(key),
    durable: () => store !== undefined && !refused,
    hold: () => {
      holding = true
    },
    commit() {
      holding = false
      for (const [key, value] of [...memory]) this.set(key, value)
    },
    get writes() {
      return writes
    },
    get failures() {
      return failures
    },
  }
}

/** A Web Storage-like object in memory: for tests, Node and server-side rendering. */
export function createMemoryStorage(): StorageLike {
  const items = new Map<string, string>()
  return {
    get length() {
      return items.size
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
  }
}

/** Stored text as JSON, or null when it is absent, unreadable, too large or not JSON. */
export function jsonOf(raw: string | null | undefined, maxLength = 2_000_000): unknown {
  return raw == null || raw.length > maxLength ? null : fromJson(raw)
}
