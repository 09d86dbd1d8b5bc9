import { describe, expect, it } from 'vitest'
import { createFakeLocks } from '../../test/support/fake-locks.ts'
import { createSender, type LockManagerLike } from './sender.ts'

const NS = 'referral:test:1x2y3z:'
const OTHER_NS = 'referral:live:9q8w7e:'

/** Lets queued microtasks and promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** A send pass the test ends by hand: `running` while it runs, `end()` finishes it. */
function controlledPass() {
  let end = () => {}
  const pass = {
    runs: 0,
    running: false,
    /** Whether the pass may still send (false once the lock was let go). */
    holding: (): boolean => false,
    end: () => end(),
    run: (holding: () => boolean) => {
      pass.holding = holding
      pass.runs += 1
      pass.running = true
      return new Promise<void>((resolve) => {
        end = () => {
          pass.running = false
          resolve()
        }
      })
    },
  }
  return pass
}

/** Tracks when `promise` settles. */
function watch(promise: Promise<void>) {
  const state = { settled: false }
  void promise.then(() => {
    state.settled = true
  })
  return state
}

// --- Web Locks ---------------------------------------------------------------------------

describe('sender with Web Locks', () => {
  it('asks for no lock while idle: an idle tab holds none and waits for none', async () => {
    const fake = createFakeLocks()
    createSender({ name: NS, locks: fake.locks })
    createSender({ name: NS, locks: fake.locks })
    await settle()
    expect(fake.requests).toBe(0)
    expect(fake.isHeld()).toBe(false)
  })

  it('holds the lock while a pass runs and lets it go when the pass ends', async () => {
    const fake = createFakeLocks()
    const sender = createSender({ name: NS, locks: fake.locks })
    const pass = controlledPass()
    const run = watch(sender.run(pass.run))
    await settle()
    expect(pass.running).toBe(true)
    expect(fake.isHeld()).toBe(true)
    pass.end()
    await settle()
    expect(run.settled).toBe(true)
    expect(fake.isHeld()).toBe(false)
    expect(fake.requests).toBe(1)
  })

  it("runs two tabs' passes one after the other, never together, and none waits longer than the pass before it", async () => {
    const fake = createFakeLocks()
    const a = createSender({ name: NS, locks: fake.locks })
    const b = createSender({ name: NS, locks: fake.locks })
    const passA = controlledPass()
    const passB = controlledPass()
    void a.run(passA.run)
    await settle()
    const runB = watch(b.run(passB.run))
    await settle()
    expect(passA.running).toBe(true)
    expect(passB.runs).toBe(0) // waits its turn
    expect(fake.waitingFor()).toBe(1)
    passA.end()
    await settle()
    expect(passB.running).toBe(true)
    passB.end()
    await settle()
    expect(runB.settled).toBe(true)
    expect(fake.isHeld()).toBe(false)
  })

  it('never has two passes at once for one key, whatever the order the tabs ask in', async () => {
    const fake = createFakeLocks()
    const passes = [1, 2, 3, 4].map(() => controlledPass())
    for (const pass of passes) void createSender({ name: NS, locks: fake.locks }).run(pass.run)
    for (let turn = 0; turn < passes.length; turn++) {
      await settle()
      expect(passes.filter((pass) => pass.running)).toEqual([passes[turn]])
      passes[turn]?.end()
    }
    await settle()
    expect(fake.isHeld()).toBe(false)
  })

  it('uses one lock per key namespace, so two keys send at the same time', async () => {
    const fake = createFakeLocks()
    const a = controlledPass()
    const b = controlledPass()
    void createSender({ name: NS, locks: fake.locks }).run(a.run)
    void createSender({ name: OTHER_NS, locks: fake.locks }).run(b.run)
    await settle()
    expect([a.running, b.running]).toEqual([true, true])
  })

  it('still sends when the lock manager refuses (e.g. SecurityError), and asks it no more', async () => {
    let requests = 0
    const refusing: LockManagerLike = {
      request: () => {
        requests += 1
        return Promise.reject(new DOMException('Locks are not allowed here.', 'SecurityError'))
      },
    }
    const sender = createSender({ name: NS, locks: refusing })
    const pass = controlledPass()
    void sender.run(pass.run)
    await settle()
    expect(pass.running).toBe(true)
    pass.end()
    void sender.run(pass.run)
    expect(pass.runs).toBe(2)
    expect(requests).toBe(1)
  })

  it('does not throw when the lock manager throws synchronously, and sends', async () => {
    const throwing: LockManagerLike = {
      request: () => {
        throw new DOMException('Locks are not allowed here.', 'SecurityError')
      },
    }
    const pass = controlledPass()
    const sender = createSender({ name: NS, locks: throwing })
    expect(() => sender.run(pass.run)).not.toThrow()
    expect(pass.running).toBe(true)
  })

  it('runs no pass once released, and lets a held lock go', async () => {
    const fake = createFakeLocks()
    const sender = createSender({ name: NS, locks: fake.locks })
    void sender.run(controlledPass().run)
    await settle()
    sender.release()
    await settle()
    expect(fake.isHeld()).toBe(false)
    const late = controlledPass()
    await sender.run(late.run)
    expect(late.runs).toBe(0)
  })
})

// --- No Web Locks ----------------------------------------------------------------------------

describe('sender without Web Locks (browsers older than 2022)', () => {
  it("runs every tab's pass at once: the service counts each event id once", () => {
    const a = controlledPass()
    const b = controlledPass()
    void createSender({ name: NS, locks: undefined }).run(a.run)
    void createSender({ name: NS, locks: undefined }).run(b.run)
    expect([a.running, b.running]).toEqual([true, true])
  })

  it('runs no pass once released', async () => {
    const sender = createSender({ name: NS, locks: undefined })
    sender.release()
    const pass = controlledPass()
    await sender.run(pass.run)
    expect(pass.runs).toBe(0)
  })
})

// --- Hidden and shown again (the back/forward cache) -----------------------------------------

describe('a page hidden and shown again', () => {
  it('a page hidden during its pass lets the lock go at once: the next tab sends; the pass still ends', async () => {
    const fake = createFakeLocks()
    const a = createSender({ name: NS, locks: fake.locks })
    const b = createSender({ name: NS, locks: fake.locks })
    const passA = controlledPass()
    const passB = controlledPass()
    const runA = watch(a.run(passA.run))
    await settle()
    void b.run(passB.run)
    await settle()
    expect(passA.holding()).toBe(true)
    a.pause()
    await settle()
    expect(passA.holding()).toBe(false) // it sends nothing more
    expect(passB.running).toBe(true) // not kept waiting by a hidden page
    expect(passB.holding()).toBe(true)
    expect(runA.settled).toBe(false) // its request is still out
    passA.end()
    await settle()
    expect(runA.settled).toBe(true)
  })

  it('a page hidden while it waits leaves the queue and runs nothing; shown again, it asks anew', async () => {
    const fake = createFakeLocks()
    const a = createSender({ name: NS, locks: fake.locks })
    const b = createSender({ name: NS, locks: fake.locks })
    const passA = controlledPass()
    const passB = controlledPass()
    void a.run(passA.run)
    await settle()
    const runB = watch(b.run(passB.run))
    await settle()
    b.pause()
    await settle()
    expect(fake.waitingFor()).toBe(0)
    expect(runB.settled).toBe(true)
    passA.end()
    await settle()
    expect(fake.isHeld()).toBe(false)
    expect(passB.runs).toBe(0)

    // Hidden: no pass starts, nothing is asked for.
    await b.run(passB.run)
    expect(passB.runs).toBe(0)
    expect(fake.requests).toBe(2)

    b.resume()
    void b.run(passB.run)
    await settle()
    expect(passB.running).toBe(true)
    expect(fake.requests).toBe(3)
  })

  it('without Web Locks there is no lock to give up: a hidden tab still sends what it has', () => {
    const sender = createSender({ name: NS, locks: undefined })
    sender.pause()
    const pass = controlledPass()
    void sender.run(pass.run)
    expect(pass.running).toBe(true)
  })
})
