// Which tab sends. One tab at a time holds the role for a key's namespace: with Web Locks it
// holds an exclusive lock for its lifetime (released by the browser when the tab goes); without
// them, or when the lock manager refuses, a lease in storage with an expiry that the holder
// renews and everyone re-checks before each send. Storage events arrive late, so nothing here
// trusts them to decide.
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
  /** Called when this tab becomes the sender (at once if it already is). */
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
  let released = false
  /** How the role is held: by a Web Lock, or by the storage lease. */
  let mode: 'lock' | 'lease' = options.locks ? 'lock' : 'lease'
  let lockHeld = false
  let leaseHeld = false
  let unlock = () => {}

  const acquired = () => {
    if (released) return
    for (const listener of listeners) listener()
  }

  // --- the storage lease ------------------------------------------------------------------
  const leaseKey = `${name}lease`
  // A lease that runs out further ahead than one term was written by a clock that has since
  // jumped backwards: it is treated as expired so the queue keeps moving.
  const valid = (lease: Lease | null, at: number) =>
    lease !== null && lease.expiresAt > at && lease.expiresAt <= at + LEASE_MS
  const ownsLease = () => {
    const lease = readLease(storage, leaseKey)
    return lease?.owner === tabId && valid(lease, now())
  }
  let timer: unknown
  const renew = () => {
    if (released) return
    const at = now()
    const lease = readLease(storage, leaseKey)
    // Held until now only if the lease still says so: after a clock jump it may not.
    const wasHeld = leaseHeld && lease?.owner === tabId && valid(lease, at)
    if (!valid(lease, at) || lease?.owner === tabId) {
      storage.set(leaseKey, JSON.stringify({ owner: tabId, expiresAt: at + LEASE_MS }))
    }
    leaseHeld = ownsLease()
    timer = timers.setTimeout(renew, leaseHeld ? LEASE_MS / 3 : LEASE_MS / 2)
    // In Node, renewing a lease is no reason to keep the process alive.
    ;(timer as { unref?: () => void } | undefined)?.unref?.()
    if (leaseHeld && !wasHeld) acquired()
  }
  const useLease = () => {
    mode = 'lease'
    renew()
  }

  // --- the Web Lock -------------------------------------------------------------------------
  if (options.locks) {
    const until = new Promise<void>((resolve) => {
      unlock = resolve
    })
    try {
      options.locks
        .request(`${name}sender`, { mode: 'exclusive' }, () => {
          lockHeld = true
          acquired()
          return until
        })
        .catch(() => {
          // Refused (a sandboxed frame, a SecurityError): the lease still elects a sender.
          if (!lockHeld && !released) useLease()
        })
    } catch {
      useLease()
    }
  } else {
    useLease()
  }

  return {
    isSender: () => !released && (mode === 'lock' ? lockHeld : ownsLease()),
    onAcquire: (listener) => {
      listeners.push(listener)
      if (!released && (mode === 'lock' ? lockHeld : leaseHeld)) listener()
    },
    release: () => {
      released = true
      lockHeld = false
      unlock()
      if (timer !== undefined) timers.clearTimeout(timer)
      if (readLease(storage, leaseKey)?.owner === tabId) storage.remove(leaseKey)
    },
  }
}
