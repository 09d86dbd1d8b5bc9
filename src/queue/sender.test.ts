import { describe, expect, it, vi } from 'vitest'
import { createSender, type LockManagerLike } from './sender.ts'

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
          const grant = () => {
            holders.set(name, (holders.get(name) ?? 0) + 1)
            run()
          }
          queue.push(grant)
          waiting.set(name, queue)
          // As browsers do: an aborted request leaves the queue and rejects with AbortError.
          options.signal?.addEventListener('abort', () => {
            const at = queue.indexOf(grant)
            if (at === -1) return
            queue.splice(at, 1)
            reject(new DOMException('The request was aborted.', 'AbortError'))
          })
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

function lockTab(locks: LockManagerLike | undefined, _tabId: string, name = NS) {
  const acquired = vi.fn()
  const sender = createSender({ name, locks })
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

  it('still sends when the lock manager refuses (e.g. SecurityError): every such tab sends', async () => {
    const refusing: LockManagerLike = {
      request: () =>
        Promise.reject(new DOMException('Locks are not allowed here.', 'SecurityError')),
    }
    const a = lockTab(refusing, 'tabA')
    const b = lockTab(refusing, 'tabB')
    await settle()
    expect(a.sender.isSender()).toBe(true)
    expect(b.sender.isSender()).toBe(true)
    expect(a.acquired).toHaveBeenCalledTimes(1)
  })

  it('does not crash when the lock manager throws synchronously, and sends', () => {
    const throwing: LockManagerLike = {
      request: () => {
        throw new DOMException('Locks are not allowed here.', 'SecurityError')
      },
    }
    let tab: ReturnType<typeof lockTab> | undefined
    expect(() => {
      tab = lockTab(throwing, 'tabA')
    }).not.toThrow()
    expect(tab?.sender.isSender()).toBe(true)
  })
})

// --- No Web Locks ----------------------------------------------------------------------------

describe('sender without Web Locks (browsers older than 2022)', () => {
  it('makes every tab a sender at once: the service counts each event id once', () => {
    const a = lockTab(undefined, 'tabA')
    const b = lockTab(undefined, 'tabB')
    expect(a.sender.isSender()).toBe(true)
    expect(b.sender.isSender()).toBe(true)
    expect(a.acquired).toHaveBeenCalledTimes(1)
    expect(b.acquired).toHaveBeenCalledTimes(1)
  })

  it('stops sending once released, and writes nothing to storage', () => {
    const a = lockTab(undefined, 'tabA')
    a.sender.release()
    expect(a.sender.isSender()).toBe(false)
    const late = vi.fn()
    a.sender.onAcquire(late)
    expect(late).not.toHaveBeenCalled()
  })
})

// --- Hidden and shown again (the back/forward cache) -----------------------------------------

describe('a page hidden and shown again', () => {
  it('a hidden sender gives the lock up at once: the next tab takes it; shown again, it waits its turn', async () => {
    const fake = createFakeLocks()
    const a = lockTab(fake.locks, 'tabA')
    const b = lockTab(fake.locks, 'tabB')
    await settle()
    a.sender.pause()
    expect(a.sender.isSender()).toBe(false)
    await settle()
    expect(b.sender.isSender()).toBe(true)

    a.sender.resume()
    await settle()
    expect(a.sender.isSender()).toBe(false)
    expect(fake.waitingFor(`${NS}sender`)).toBe(1)
    b.sender.release()
    await settle()
    expect(a.sender.isSender()).toBe(true)
    expect(a.acquired).toHaveBeenCalledTimes(2)
  })

  it('a tab hidden while it waits leaves the queue, and is not taken for one the lock manager refused', async () => {
    const fake = createFakeLocks()
    const a = lockTab(fake.locks, 'tabA')
    const b = lockTab(fake.locks, 'tabB')
    await settle()
    b.sender.pause()
    await settle()
    expect(fake.waitingFor(`${NS}sender`)).toBe(0)
    expect(b.sender.isSender()).toBe(false)
    a.sender.release()
    await settle()
    expect(fake.isHeld(`${NS}sender`)).toBe(false)
    expect(b.acquired).not.toHaveBeenCalled()

    b.sender.resume()
    await settle()
    expect(b.sender.isSender()).toBe(true)
    expect(b.acquired).toHaveBeenCalledTimes(1)
  })

  it('without Web Locks there is no lock to give up: a hidden tab still sends what it has', () => {
    const a = lockTab(undefined, 'tabA')
    a.sender.pause()
    expect(a.sender.isSender()).toBe(true)
    a.sender.resume()
    expect(a.sender.isSender()).toBe(true)
    expect(a.acquired).toHaveBeenCalledTimes(1)
  })
})
