// Which tab sends. One tab at a time holds the role for a key's namespace: with Web Locks it
// holds an exclusive lock for its lifetime (released by the browser when the tab goes); without
// them, a lease in storage with an expiry that the holder renews and everyone re-checks before
// each send. Storage events arrive late, so nothing here trusts them to decide.
import type { SafeStorage } from './storage.ts'
import type { Timers } from './timers.ts'

export interface LockManagerLike {
  request(
    name: string,
    options: { mode: 'exclusive' },
    callback: () => Promise<void>,
  ): Promise<unknown>
}

export interface Sender {
  /** Checked before every send. */
  isSender(): boolean
  /** Called when this tab becomes the sender. */
  onAcquire(listener: () => void): void
  release(): void
}

export const LEASE_MS = 10_000

interface Lease {
  owner: string
  expiresAt: number
}

function readLease(storage: SafeStorage, key: string): Lease | null {
  const raw = storage.get(key)
  if (raw === null) return null
  try {
    const value: unknown = JSON.parse(raw)
    if (
      typeof value === 'object' &&
      value !== null &&
      'owner' in value &&
      'expiresAt' in value &&
      typeof value.owner === 'string' &&
      typeof value.expiresAt === 'number'
    ) {
      return { owner: value.owner, expiresAt: value.expiresAt }
    }
  } catch {}
  return null
}

export function createSender(options: {
  name: string
  tabId: string
  storage: SafeStorage
  locks: LockManagerLike | undefined
  now: () => number
  timers: Timers
}): Sender {
  const { name, tabId, storage, now, timers } = options
  const listeners: Array<() => void> = []
  let held = false
  let released = false
  const acquired = () => {
    if (released) return
    held = true
    for (const listener of listeners) listener()
  }

  if (options.locks) {
    let unlock = () => {}
    const until = new Promise<void>((resolve) => {
      unlock = resolve
    })
    options.locks
      .request(`${name}sender`, { mode: 'exclusive' }, () => {
        acquired()
        return until
      })
      .catch(() => {})
    return {
      isSender: () => held && !released,
      onAcquire: (listener) => void listeners.push(listener),
      release: () => {
        released = true
        held = false
        unlock()
      },
    }
  }

  const key = `${name}lease`
  // A lease that runs out further ahead than one term was written by a clock that has since
  // jumped backwards: it is treated as expired so the queue keeps moving.
  const valid = (lease: Lease | null, at: number) =>
    lease !== null && lease.expiresAt > at && lease.expiresAt <= at + LEASE_MS
  const ownsLease = () => {
    const lease = readLease(storage, key)
    return lease?.owner === tabId && valid(lease, now())
  }

  let timer: ReturnType<Timers['setTimeout']> | undefined
  const renew = () => {
    if (released) return
    const at = now()
    const lease = readLease(storage, key)
    if (!valid(lease, at) || lease?.owner === tabId) {
      storage.set(key, JSON.stringify({ owner: tabId, expiresAt: at + LEASE_MS }))
    }
    const wasHeld = held
    held = ownsLease()
    if (held && !wasHeld) acquired()
    timer = timers.setTimeout(renew, held ? LEASE_MS / 3 : LEASE_MS / 2)
    // In Node, renewing a lease is no reason to keep the process alive.
    ;(timer as { unref?: () => void } | undefined)?.unref?.()
  }
  renew()

  return {
    isSender: () => !released && ownsLease(),
    onAcquire: (listener) => void listeners.push(listener),
    release: () => {
      released = true
      held = false
      if (timer !== undefined) timers.clearTimeout(timer)
      if (readLease(storage, key)?.owner === tabId) storage.remove(key)
    },
  }
}
