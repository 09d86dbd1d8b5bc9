// The durable event queue. An event is written to storage (chunks.ts, within its bounds) before
// any request is made and is removed only when the service has confirmed it (accepted or
// duplicate) or refused it for good. What may be sent now is backlog.ts's; one send pass is
// pass.ts's; what an answer means for each event is answers.ts's. The delivery state
// (delivery.ts), shared by the tabs, holds a 429's pause and the backoff.
import type { ApiClient } from '../api/client.ts'
import type { ServiceClock } from '../api/clock.ts'
import { MAX_BODY_BYTES, MAX_EVENTS_PER_REQUEST, type TrackedEvent } from '../api/wire.ts'
import type { Timers } from '../shared/timers.ts'
import { createAnnouncer, type Emit, type QueueEvents } from './announce.ts'
import { createBacklog } from './backlog.ts'
import {
  BEACON_KEY_BYTES,
  createChunkStore,
  DEFAULT_MAX_STORED_CHARS,
  type DropReason,
  ENVELOPE_BYTES,
  type QueuedEvent,
  sizeOf,
  stripped,
} from './chunks.ts'
import { createDeliveryState } from './delivery.ts'
import { createSendPass, RECHECK_MS } from './pass.ts'
import type { Sender } from './sender.ts'
import type { SafeStorage } from './storage.ts'

export type { DropReason, QueuedEvent, QueueEvents }

export type Connection =
  | { state: 'online' }
  | { state: 'offline' }
  | { state: 'rate-limited'; until: number }
  | { state: 'retrying'; at: number }

export interface QueueOptions {
  storage: SafeStorage
  /** The storage namespace, e.g. `referral:test:abc123:`. */
  namespace: string
  api: Pick<ApiClient, 'sendEvents' | 'beacon'>
  sender: Sender
  now: () => number
  random: () => number
  timers: Timers
  isOnline: () => boolean
  /** False until the visitor consents, where consent is required: nothing is sent before. */
  canSend?: () => boolean
  emit: Emit
  /** Unique per page, to name chunks. */
  tabId: string
  /** The service's time as learned from its answers; the device clock where not given. */
  clock?: ServiceClock | undefined
  maxEvents?: number
  maxAgeMs?: number
  /** Characters for everything the widget stores under its namespace. */
  maxStoredChars?: number
  /** navigator.sendBeacon, when the page has it. */
  sendBeacon?: ((url: string, body: string) => boolean) | undefined
}

export const DEFAULT_MAX_EVENTS = 1000
export const DEFAULT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000
/** Events tracked within this window of each other go out in one request. */
export const SEND_DELAY_MS = 1000

/* @__NO_SIDE_EFFECTS__ */
export function createQueue(options: QueueOptions) {
  const { storage, namespace, api, sender, now, timers, emit } = options
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS

  let pending: QueuedEvent[] = []
  let persistScheduled = false
  let timer: unknown
  let timerAt = 0
  let running: Promise<void> | null = null
  let destroyed = false
  /** Ids of events in the request under way, so a second pass never sends them twice. */
  const inFlight = new Set<string>()
  const clock = options.clock
  // Events that looked too old by the device clock waited for it: the first answer decides.
  clock?.onKnown(() => queueMicrotask(() => void flush()))

  const { dropped, invalid } = createAnnouncer(emit, { maxEvents, maxAgeMs })

  const store = createChunkStore({
    storage,
    namespace,
    tabId: options.tabId,
    now,
    maxEvents,
    maxChars: options.maxStoredChars ?? DEFAULT_MAX_STORED_CHARS,
    onInvalid: invalid,
  })
  const delivery = createDeliveryState(storage, `${namespace}delivery`, now)
  const backlog = createBacklog({
    store,
    storage,
    clock,
    now,
    maxAgeMs,
    maxEvents,
    inFlight,
    dropped,
  })

  /** Writes what `track` gathered in this task as one chunk, within the bounds: one write per burst. */
  const persist = () => {
    persistScheduled = false
    if (pending.length === 0) return
    const events = pending
    pending = []
    const { fell, kept } = store.fit(events, inFlight)
    dropped(fell, 'overflow')
    store.append(kept)
    emit('change', undefined)
  }

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

  const canSend = options.canSend ?? (() => true)
  const pass = createSendPass({
    api,
    backlog,
    delivery,
    sender,
    storage,
    now,
    random: options.random,
    isOnline: options.isOnline,
    canSend,
    isDestroyed: () => destroyed,
    inFlight,
    schedule,
    emit,
    dropped,
  })

  const connection = (): Connection => {
    if (!options.isOnline()) return { state: 'offline' }
    const state = delivery.read()
    if (delivery.pauseLeft(state) > 0) return { state: 'rate-limited', until: state.pausedUntil }
    if (delivery.backoffLeft(state) > 0) return { state: 'retrying', at: state.nextAttemptAt }
    const refused = pass.refusedLeft()
    return refused > 0 ? { state: 'retrying', at: now() + refused } : { state: 'online' }
  }

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

  /** Lets the next pass go without waiting for the backoff (a 429's pause still holds). */
  const skipBackoff = () => {
    const state = delivery.read()
    if (state.nextAttemptAt !== 0) delivery.write({ ...state, nextAttemptAt: 0 })
  }

  /** Like flush, but waits for a 429's Retry-After to end first. */
  async function flushRespectingPause(): Promise<void> {
    persist()
    const pause = options.isOnline() ? delivery.pauseLeft(delivery.read()) : 0
    if (pause > 0) {
      await new Promise<void>((resolve) => timers.setTimeout(resolve, pause))
    }
    // A backoff timer is not waited for: flush() tries at once.
    skipBackoff()
    pass.skipRefusal()
    await flush()
  }

  return {
    /**
     * Stores the event (in a microtask, one write per burst) and sends it with whatever else is
     * tracked within SEND_DELAY_MS, once no pause or backoff runs. False when the event is
     * outside the contract's bounds: dropped, announced, never stored.
     */
    enqueue(event: TrackedEvent): boolean {
      // The core builds events from parts it has checked (track's code and user id, a stored
      // visitor id that was parsed, a strict timestamp), so a burst pays no parse per call;
      // what storage gives back is checked event by event.
      pending.push({
        ...event,
        queuedAt: now(),
        attempts: 0,
        ...(clock?.known() ? { serviceAt: clock.now() } : {}),
      })
      emit('event:queued', { event })
      if (!persistScheduled) {
        persistScheduled = true
        queueMicrotask(() => {
          if (destroyed) return
          persist()
          schedule(now() + SEND_DELAY_MS)
        })
      }
      return true
    },
    flush: flushRespectingPause,
    /**
     * Tries once without waiting for the coalescing window, but never inside a pause or a
     * backoff; used by start, consent and a page shown again. In a microtask, so listeners attached right
     * after start hear what the first pass says.
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
      if (!options.sendBeacon || !options.isOnline() || !canSend()) return
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
    /** Forgets events gathered in this task and not yet written (forget, consent withdrawn). */
    discardPending() {
      pending = []
    },
    /** Events stored (in any tab) or gathered, not yet confirmed by the service. */
    size: () => pending.length + store.count(),
    connection,
    /** For the first-party reader of the queue: the stored events, oldest first. */
    storedEvents: () => backlog.load().ordered.map((entry) => entry.event),
    destroy() {
      persist()
      destroyed = true
      if (timer !== undefined) timers.clearTimeout(timer)
      timer = undefined
    },
  }
}

export type Queue = ReturnType<typeof createQueue>
