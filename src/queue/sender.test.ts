import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSender, LEASE_MS, type LockManagerLike, type Sender } from './sender.ts'
import { createMemoryStorage, createSafeStorage, type StorageLike } from './storage.ts'
import { globalTimers, type Timers } from './timers.ts'

const NS = 'referral:test:1x2y3z:'
const OTHER_NS = 'referral:live:9q8w7e:'

// --- Web Locks ---------------------------------------------------------------------------

/** An exclusive lock manager: one holder per name, the others queued in request order. */
function createFakeLocks() {
  const holders = new Map<string, number>()
  const waiting = new Map<string, Array<() => void>>()
  let requests = 0

  const locks: LockManagerLike = {
    request(name, options, callback) {
      requests += 1
      expect(options.mode).toBe('exclusive')
      return new Promise<unknown>((resolve, reject) => {
        const run = () => {
          let done: Promise<void>
          try {
            done = Promise.resolve(callback())
          } catch (error) {
            done = Promise.reject(error)
          }
          done.then(resolve, reject).finally(() => {
            const next = waiting.get(name)?.shift()
            if (next) queueMicrotask(next)
            else holders.delete(name)
          })
        }
        if (holders.has(name)) {
          const queue = waiting.get(name) ?? []
          queue.push(() => {
            holders.set(name, (holders.get(name) ?? 0) + 1)
            run()
          })
          waiting.set(name, queue)
        } else {
          holders.set(name, 1)
          queueMicrotask(run) // granted asynchronously, as browsers do
        }
      })
    },
  }
  return {
    locks,
    isHeld: (name: string) => holders.has(name),
    waitingFor: (name: string) => waiting.get(name)?.length ?? 0,
    get requests() {
      return requests
    },
  }
}

/** Lets queued microtasks and promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

function lockTab(locks: LockManagerLike | undefined, tabId: string, name = NS) {
  const acquired = vi.fn()
  const sender = createSender({
    name,
    tabId,
    storage: createSafeStorage(createMemoryStorage(), { quiet: true }),
    locks,
    now: () => Date.now(),
    timers: globalTimers,
  })
  sender.onAcquire(acquired)
  return { sender, acquired }
}

describe('sender with Web Locks', () => {
  it('makes the first tab the sender once its lock is granted, and queues the second', async () => {
    const fake = createFakeLocks()
    const a = lockTab(fake.locks, 'tabA')
    const b = lockTab(fake.locks, 'tabB')
    expect(a.sender.isSender()).toBe(false) // not before the lock is granted
    await settle()
    expect(a.sender.isSender()).toBe(true)
    expect(a.acquired).toHaveBeenCalledTimes(1)
    expect(b.sender.isSender()).toBe(false)
    expect(b.acquired).not.toHaveBeenCalled()
    expect(fake.isHeld(`${NS}sender`)).toBe(true)
    expect(fake.waitingFor(`${NS}sender`)).toBe(1)
  })

  it('keeps the lock for the life of the tab', async () => {
    const fake = createFakeLocks()
    const a = lockTab(fake.locks, 'tabA')
    const b = lockTab(fake.locks, 'tabB')
    for (let i = 0; i < 5; i++) await settle()
    expect(a.sender.isSender()).toBe(true)
    expect(b.sender.isSender()).toBe(false)
    expect(fake.requests).toBe(2)
  })

  it('hands the role to the next tab when the sender releases', async () => {
    const fake = createFakeLocks()
    const a = lockTab(fake.locks, 'tabA')
    const b = lockTab(fake.locks, 'tabB')
    await settle()
    a.sender.release()
    expect(a.sender.isSender()).toBe(false)
    await settle()
    expect(b.sender.isSender()).toBe(true)
    expect(b.acquired).toHaveBeenCalledTimes(1)
    expect(a.acquired).toHaveBeenCalledTimes(1)
  })

  it('does not let a tab released while waiting block the ones behind it', async () => {
    const fake = createFakeLocks()
    const a = lockTab(fake.locks, 'tabA')
    const b = lockTab(fake.locks, 'tabB')
    const c = lockTab(fake.locks, 'tabC')
    await settle()
    b.sender.release()
    a.sender.release()
    await settle()
    expect(b.sender.isSender()).toBe(false)
    expect(b.acquired).not.toHaveBeenCalled()
    expect(c.sender.isSender()).toBe(true)
    expect(c.acquired).toHaveBeenCalledTimes(1)
  })

  it('never has two senders for one key, through a chain of hand-overs', async () => {
    const fake = createFakeLocks()
    const tabs = ['t1', 't2', 't3', 't4'].map((id) => lockTab(fake.locks, id))
    for (const tab of tabs) {
      await settle()
      expect(tabs.filter((t) => t.sender.isSender())).toEqual([tab])
      tab.sender.release()
    }
    await settle()
    expect(tabs.filter((t) => t.sender.isSender())).toEqual([])
    expect(fake.isHeld(`${NS}sender`)).toBe(false)
  })

  it('uses one lock per key namespace, so two keys each have a sender', async () => {
    const fake = createFakeLocks()
    const a = lockTab(fake.locks, 'tabA', NS)
    const b = lockTab(fake.locks, 'tabB', OTHER_NS)
    await settle()
    expect(a.sender.isSender()).toBe(true)
    expect(b.sender.isSender()).toBe(true)
  })

  it('still gets a sender when the lock manager refuses (e.g. SecurityError), via the lease', async () => {
    const refusing: LockManagerLike = {
      request: () =>
        Promise.reject(new DOMException('Locks are not allowed here.', 'SecurityError')),
    }
    const a = lockTab(refusing, 'tabA')
    await settle()
    expect(a.sender.isSender()).toBe(true)
  })

  it('does not crash when the lock manager throws synchronously', () => {
    const throwing: LockManagerLike = {
      request: () => {
        throw new DOMException('Locks are not allowed here.', 'SecurityError')
      },
    }
    expect(() => lockTab(throwing, 'tabA')).not.toThrow()
  })
})

// --- Storage lease -----------------------------------------------------------------------

const START = Date.UTC(2025, 0, 15, 12, 0, 0)

/** A tab's timers: it can be frozen (background tab) and closed (tab gone, nothing runs). */
function tabTimers(): { timers: Timers; freeze(): void; thaw(): void; close(): void } {
  let state: 'running' | 'frozen' | 'closed' = 'running'
  const deferred: Array<() => void> = []
  return {
    timers: {
      setTimeout: (callback, ms) =>
        globalThis.setTimeout(() => {
          if (state === 'running') callback()
          else if (state === 'frozen') deferred.push(callback)
        }, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    freeze: () => {
      state = 'frozen'
    },
    thaw: () => {
      state = 'running'
      for (const callback of deferred.splice(0)) callback()
    },
    close: () => {
      state = 'closed'
    },
  }
}

interface LeaseTab {
  sender: Sender
  acquired: ReturnType<typeof vi.fn>
  freeze(): void
  thaw(): void
  close(): void
}

function leaseTab(backing: StorageLike, tabId: string, name = NS): LeaseTab {
  const control = tabTimers()
  const acquired = vi.fn()
  const sender = createSender({
    name,
    tabId,
    // Each tab has its own view of the one localStorage the tabs share.
    storage: createSafeStorage(backing, { quiet: true }),
    locks: undefined,
    now: () => Date.now(),
    timers: control.timers,
  })
  sender.onAcquire(acquired)
  return { sender, acquired, ...control }
}

const senders = (tabs: readonly LeaseTab[]) => tabs.filter((tab) => tab.sender.isSender())

/** Advances fake time in small steps, asserting after each that at most one tab sends. */
function advanceChecking(tabs: readonly LeaseTab[], ms: number, step = 250) {
  for (let elapsed = 0; elapsed < ms; elapsed += step) {
    vi.advanceTimersByTime(Math.min(step, ms - elapsed))
    expect(senders(tabs).length).toBeLessThanOrEqual(1)
  }
}

describe('sender with a storage lease (no Web Locks)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('has exactly one sender among tabs sharing storage, for as long as it lives', () => {
    const backing = createMemoryStorage()
    const a = leaseTab(backing, 'tabA')
    const b = leaseTab(backing, 'tabB')
    const c = leaseTab(backing, 'tabC')
    expect(senders([a, b, c])).toEqual([a])
    for (let elapsed = 0; elapsed < 5 * 60_000; elapsed += 250) {
      vi.advanceTimersByTime(250)
      expect(senders([a, b, c])).toEqual([a])
    }
    expect(b.acquired).not.toHaveBeenCalled()
    expect(c.acquired).not.toHaveBeenCalled()
  })

  it('writes the lease under the key namespace only', () => {
    const backing = createMemoryStorage()
    leaseTab(backing, 'tabA')
    expect(backing.length).toBe(1)
    expect(backing.key(0)?.startsWith(NS)).toBe(true)
  })

  it('lets another tab take over once a closed tab stops renewing and its lease runs out', () => {
    const backing = createMemoryStorage()
    const a = leaseTab(backing, 'tabA')
    const b = leaseTab(backing, 'tabB')
    vi.advanceTimersByTime(1000)
    a.close() // no release(): the tab just went away
    const closedAt = Date.now()
    // Its last renewal was at START (the next was due at START + LEASE_MS / 3).
    advanceChecking([a, b], START + LEASE_MS - 1 - closedAt)
    expect(b.sender.isSender()).toBe(false) // the lease is honoured until it runs out
    advanceChecking([a, b], LEASE_MS / 2 + 1)
    expect(b.sender.isSender()).toBe(true)
    expect(b.acquired).toHaveBeenCalledTimes(1)
    expect(a.sender.isSender()).toBe(false)
    advanceChecking([a, b], 60_000)
    expect(senders([a, b])).toEqual([b])
  })

  it('hands over on the next renewal when the sender releases', () => {
    const backing = createMemoryStorage()
    const a = leaseTab(backing, 'tabA')
    const b = leaseTab(backing, 'tabB')
    vi.advanceTimersByTime(2000)
    expect(senders([a, b])).toEqual([a])
    a.sender.release()
    expect(a.sender.isSender()).toBe(false)
    advanceChecking([a, b], LEASE_MS / 2)
    expect(b.sender.isSender()).toBe(true)
    expect(b.acquired).toHaveBeenCalledTimes(1)
    advanceChecking([a, b], 60_000)
    expect(senders([a, b])).toEqual([b])
    // A was told once, when it subscribed while already holding the lease; never again.
    expect(a.acquired).toHaveBeenCalledTimes(1)
  })

  it('stops renewing and writing once released', () => {
    const backing = createMemoryStorage()
    const storage = createSafeStorage(backing, { quiet: true })
    const sender = createSender({
      name: NS,
      tabId: 'tabA',
      storage,
      locks: undefined,
      now: () => Date.now(),
      timers: globalTimers,
    })
    sender.release()
    const writes = storage.writes
    expect(backing.length).toBe(0)
    vi.advanceTimersByTime(60_000)
    expect(storage.writes).toBe(writes)
    expect(backing.length).toBe(0)
    expect(sender.isSender()).toBe(false)
  })

  it('does not disturb the sender when a tab that is not the sender releases', () => {
    const backing = createMemoryStorage()
    const a = leaseTab(backing, 'tabA')
    const b = leaseTab(backing, 'tabB')
    b.sender.release()
    advanceChecking([a, b], 30_000)
    expect(senders([a, b])).toEqual([a])
  })

  it('does not honour a lease whose expiry lies absurdly far ahead (a clock that jumped back)', () => {
    const backing = createMemoryStorage()
    backing.setItem(
      `${NS}lease`,
      JSON.stringify({ owner: 'ghost', expiresAt: START + 24 * 60 * 60 * 1000 }),
    )
    const a = leaseTab(backing, 'tabA')
    expect(a.sender.isSender()).toBe(true)
  })

  it("honours another tab's lease that runs out within one term", () => {
    const backing = createMemoryStorage()
    backing.setItem(`${NS}lease`, JSON.stringify({ owner: 'ghost', expiresAt: START + 4000 }))
    const a = leaseTab(backing, 'tabA')
    expect(a.sender.isSender()).toBe(false)
    vi.advanceTimersByTime(3999)
    expect(a.sender.isSender()).toBe(false)
    vi.advanceTimersByTime(LEASE_MS / 2 + 1)
    expect(a.sender.isSender()).toBe(true)
    expect(a.acquired).toHaveBeenCalledTimes(1)
  })

  it('keeps at most one sender, and soon exactly one, when the clock jumps back an hour', () => {
    const backing = createMemoryStorage()
    const a = leaseTab(backing, 'tabA')
    const b = leaseTab(backing, 'tabB')
    vi.advanceTimersByTime(5000)
    vi.setSystemTime(Date.now() - 60 * 60 * 1000)
    advanceChecking([a, b], LEASE_MS)
    expect(senders([a, b]).length).toBe(1)
    advanceChecking([a, b], 60_000)
    expect(senders([a, b]).length).toBe(1)
  })

  it.each([
    ['not JSON', '{"owner":'],
    ['JSON null', 'null'],
    ['the wrong types', '{"owner":42,"expiresAt":"tomorrow"}'],
    ['a missing expiry', '{"owner":"ghost"}'],
  ])('discards a lease that is %s and takes the role', (_, raw) => {
    const backing = createMemoryStorage()
    backing.setItem(`${NS}lease`, raw)
    const a = leaseTab(backing, 'tabA')
    expect(a.sender.isSender()).toBe(true)
  })

  it('re-checks the lease before each send, not only when renewing', () => {
    const backing = createMemoryStorage()
    const a = leaseTab(backing, 'tabA')
    expect(a.sender.isSender()).toBe(true)
    // Another tab's write lands between two renewals.
    backing.setItem(
      `${NS}lease`,
      JSON.stringify({ owner: 'tabB', expiresAt: Date.now() + LEASE_MS }),
    )
    expect(a.sender.isSender()).toBe(false)
  })

  it('does not let a frozen tab that wakes up take the role back', () => {
    const backing = createMemoryStorage()
    const a = leaseTab(backing, 'tabA')
    const b = leaseTab(backing, 'tabB')
    a.freeze()
    advanceChecking([a, b], 2 * LEASE_MS)
    expect(senders([a, b])).toEqual([b])
    a.thaw()
    expect(senders([a, b])).toEqual([b])
    advanceChecking([a, b], 60_000)
    expect(senders([a, b])).toEqual([b])
  })

  it('keeps two key namespaces apart: each has its own sender', () => {
    const backing = createMemoryStorage()
    const a = leaseTab(backing, 'tabA', NS)
    const b = leaseTab(backing, 'tabB', OTHER_NS)
    advanceChecking([a], 30_000)
    expect(a.sender.isSender()).toBe(true)
    expect(b.sender.isSender()).toBe(true)
  })
})
