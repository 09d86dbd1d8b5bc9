// What sends the queue: the send pass (pass.ts) under the sender lock (sender.ts), the delivery
// state the tabs share (delivery.ts: a 429's pause, the backoff), the timers that wake it, and
// the page-hide beacon. The queue stores events without it (queue.ts); the script tag's tracking
// part loads it only when there is something to send (the delivery file), the ESM core at once.
import type { ApiClient } from '../api/client.ts'
import type { ServiceClock } from '../api/clock.ts'
import { MAX_BODY_BYTES, MAX_EVENTS_PER_REQUEST } from '../api/wire.ts'
import type { Timers } from '../shared/timers.ts'
import type { Dropped, Emit } from './announce.ts'
import { createBacklog } from './backlog.ts'
import { BEACON_KEY_BYTES, type ChunkStore, ENVELOPE_BYTES, sizeOf, stripped } from './chunks.ts'
import { createDeliveryState } from './delivery.ts'
import { createSendPass, RECHECK_MS } from './pass.ts'
import { createSender, type LockManagerLike } from './sender.ts'
import type { SafeStorage } from './storage.ts'

export type Connection =
  | { state: 'online' }
  | { state: 'offline' }
  | { state: 'rate-limited'; until: number }
  | { state: 'retrying'; at: number }

export interface SendingOptions {
  storage: SafeStorage
  namespace: string
  store: ChunkStore
  api: Pick<ApiClient, 'sendEvents' | 'beacon'>
  /** The page's Web Locks, for the sender lock; without them every tab sends. */
  locks: LockManagerLike | undefined
  now: () => number
  random: () => number
  timers: Timers
  isOnline: () => boolean
  canSend: () => boolean
  emit: Emit
  dropped: Dropped
  /** Ids of events in the request under way: the queue never drops them to make room. */
  inFlight: Set<string>
  clock: ServiceClock | undefined
  maxEvents: number
  maxAgeMs: number
  sendBeacon: ((url: string, body: string) => boolean) | undefined
  /** Writes what the queue gathered and has not stored yet. */
  persist: () => void
}

/* @__NO_SIDE_EFFECTS__ */
export function createSending(options: SendingOptions) {
  const { storage, namespace, api, now, timers, emit, inFlight, persist, clock } = options
  let timer: unknown
  let timerAt = 0
  let running: Promise<void> | null = null
  let destroyed = false

  const sender = createSender({ name: namespace, locks: options.locks })
  const delivery = createDeliveryState(storage, `${namespace}delivery`, now)
  const backlog = createBacklog({
    store: options.store,
    storage,
    doneKey: `${namespace}done`,
    clock,
    now,
    maxAgeMs: options.maxAgeMs,
    maxEvents: options.maxEvents,
    inFlight,
    dropped: options.dropped,
  })

  const schedule = (at: number) => {
    if (destroyed) return
    if (timer !== undefined && timerAt <= at) return
    if (timer !== undefined) timers.clearTimeout(timer)
    timerAt = at
    timer = timers.setTimeout(
      () => {
        timer = undefined
        void flush()
      },
      Math.max(0, at - now()),
    )
  }

  const pass = createSendPass({
    api,
    backlog,
    delivery,
    sender,
    storage,
    now,
    random: options.random,
    isOnline: options.isOnline,
    canSend: options.canSend,
    isDestroyed: () => destroyed,
    inFlight,
    schedule,
    emit,
    dropped: options.dropped,
  })

  /** Tries the queue once, now; concurrent calls share the pass under way. */
  function flush(): Promise<void> {
    if (destroyed) return Promise.resolve()
    if (!running) {
      persist()
      running = pass.run().finally(() => {
        running = null
      })
    }
    return running
  }
  // Events that looked too old by the device clock waited for it: the first answer decides.
  clock?.onKnown(() => queueMicrotask(() => void flush()))

  /** Lets the next pass go without waiting for the backoff (a 429's pause still holds). */
  const skipBackoff = () => {
    const state = delivery.read()
    if (state.nextAttemptAt !== 0) delivery.write({ ...state, nextAttemptAt: 0 })
  }

  return {
    schedule,
    /** Like flush, but waits for a 429's Retry-After to end first (see WIDGET.md). */
    async flush(): Promise<void> {
      persist()
      const pause = options.isOnline() ? delivery.pauseLeft(delivery.read()) : 0
      if (pause > 0) {
        await new Promise<void>((resolve) => timers.setTimeout(resolve, pause))
      }
      // A backoff timer is not waited for: flush() tries at once.
      skipBackoff()
      pass.skipRefusal()
      await flush()
    },
    /**
     * Tries once without waiting for the coalescing window, but never inside a pause or a
     * backoff; used by start, consent and a page shown again. In a microtask, so listeners
     * attached right after start hear what the first pass says.
     */
    kick: () => queueMicrotask(() => void flush()),
    /**
     * Another tab stored events. It sends them itself; if they are still stored a while later
     * (that tab went before it could), this one does.
     */
    watch: () => schedule(now() + RECHECK_MS),
    /** Back online: the failures of the offline time say nothing of the service; try now. */
    online() {
      skipBackoff()
      queueMicrotask(() => void flush())
    },
    /** Page hide: hands what is left to sendBeacon. The events stay stored until confirmed. */
    beacon() {
      persist()
      if (!options.sendBeacon || !options.isOnline() || !options.canSend()) return
      if (delivery.pauseLeft(delivery.read()) > 0 || pass.refusedLeft() > 0) return
      let events = backlog.load().ordered.map((entry) => stripped(entry.event))
      while (events.length > 0) {
        let bytes = ENVELOPE_BYTES + BEACON_KEY_BYTES
        let count = 0
        for (const event of events) {
          const size = sizeOf(event) + 1
          if (count >= MAX_EVENTS_PER_REQUEST || bytes + size > MAX_BODY_BYTES) break
          bytes += size
          count += 1
        }
        const { url, body } = api.beacon(events.slice(0, count))
        if (!options.sendBeacon(url, body)) break
        events = events.slice(count)
      }
    },
    connection(): Connection {
      if (!options.isOnline()) return { state: 'offline' }
      const state = delivery.read()
      if (delivery.pauseLeft(state) > 0) return { state: 'rate-limited', until: state.pausedUntil }
      if (state.attempt > 0 && delivery.backoffLeft(state) > 0)
        return { state: 'retrying', at: state.nextAttemptAt }
      const refused = pass.refusedLeft()
      return refused > 0 ? { state: 'retrying', at: now() + refused } : { state: 'online' }
    },
    /** The page is hidden: the lock goes, no pass starts; shown again, it may send. */
    pause: sender.pause,
    resume: sender.resume,
    destroy() {
      destroyed = true
      sender.release()
      if (timer !== undefined) timers.clearTimeout(timer)
      timer = undefined
    },
  }
}

export type Sending = ReturnType<typeof createSending>
export type CreateSending = typeof createSending
