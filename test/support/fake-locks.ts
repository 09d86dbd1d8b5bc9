// An exclusive Web Lock manager in memory, as browsers have it: one holder per name, the others
// queued in request order, granted asynchronously, and an aborted wait rejected with AbortError.
import { expect } from 'vitest'
import type { LockManagerLike } from '../../src/queue/sender.ts'

/** A lock manager, and what it holds and queues (by lock name; any lock without one). */
export function createFakeLocks() {
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
    isHeld: (name?: string) => (name === undefined ? holders.size > 0 : holders.has(name)),
    waitingFor: (name?: string) =>
      name === undefined
        ? [...waiting.values()].reduce((sum, queue) => sum + queue.length, 0)
        : (waiting.get(name)?.length ?? 0),
    get requests() {
      return requests
    },
  }
}
