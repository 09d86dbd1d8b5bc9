// The durable event queue's send pass. An event is written to storage (chunks.ts) before any
// request is made and is removed only when the service has confirmed it (accepted or duplicate)
// or refused it for good. The delivery state (delivery.ts) holds a 429's pause and the backoff:
// while either runs, nothing is sent.
import type { ApiClient } from '../api/client.ts'
import type { ServiceClock } from '../api/clock.ts'
import { backoffMs } from '../api/retry.ts'
import { MAX_BODY_BYTES, MAX_EVENTS_PER_REQUEST, type TrackedEvent } from '../api/wire.ts'
import { ApiError, messageOf } from '../shared/errors.ts'
import { warn } from '../shared/log.ts'
import type { Timers } from '../shared/timers.ts'
import {
  BEACON_KEY_BYTES,
  createChunkStore,
  type DropReason,
  ENVELOPE_BYTES,
  type QueuedEvent,
  sizeOf,
  stripped,
} from './chunks.ts'
import { createDeliveryState, type Delivery, IDLE } from './delivery.ts'
import type { Sender } from './sender.ts'
import type { SafeStorage } from './storage.ts'

export type { DropReason, QueuedEvent }

export interface QueueEvents {
  'event:queued': { event: TrackedEvent }
  'event:sent': { event: TrackedEvent; status: 'accepted' | 'duplicate' }
  'event:dropped': {
    event: TrackedEvent
    reason: DropReason
    error?: { code: string; message: string }
  }
  ratelimited: { until: number }
  change: undefined
}

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
  emit: <K extends keyof QueueEvents>(name: K, payload: QueueEvents[K]) => void
  /** Unique per page, to name chunks. */
  tabId: string
  /** The service's time as learned from its answers; the device clock where not given. */
  clock?: ServiceClock | undefined
  maxEvents?: number
  maxAgeMs?: number
  /** navigator.sendBeacon, when the page has it. */
  sendBeacon?: ((url: string, body: string) => boolean) | undefined
}

export const DEFAULT_MAX_EVENTS = 1000
export const DEFAULT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000
/** How often a tab that may not send looks whether the stored events are still waiting. */
const RECHECK_MS = 5000
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
  /**
   * A request that fails before reaching the network the same way twice is cut in half: one
   * event the browser will not send (whatever the reason) then cannot hold the others. An event
   * that fails alone that way is held back behind the others for this page's life.
   */
  let batchLimit = MAX_EVENTS_PER_REQUEST
  let lastFailure = ''
  const heldBack = new Set<string>()
  // Events that looked too old by the device clock waited for it: the first answer decides.
  clock?.onKnown(() => queueMicrotask(() => void flush()))

  // --- storage ---------------------------------------------------------------------------

  /** Announces events that break the contract's bounds, by the id they carry where they have one. */
  const refuse = (values: readonly unknown[]) => {
    warn(
      `Dropped ${values.length} event${values.length === 1 ? '' : 's'} outside the contract's bounds (malformed or oversized).`,
    )
    for (const value of values) {
      const { id, type } = (typeof value === 'object' && value !== null ? value : {}) as {
        id?: unknown
        type?: unknown
      }
      if (typeof id !== 'string') continue
      emit('event:dropped', {
        event: {
          id: id.slice(0, 64),
          type: type === 'click' ? 'click' : 'signup',
          visitorId: '',
        },
        reason: 'invalid',
      })
    }
  }

  const store = createChunkStore({
    storage,
    namespace,
    tabId: options.tabId,
    now,
    onInvalid: (values) => refuse(values),
  })
  const {
    read: readDelivery,
    write: writeDelivery,
    pauseLeft,
    backoffLeft,
  } = createDeliveryState(storage, `${namespace}delivery`, now)

  /** Writes what `track` gathered in this task as one chunk: one storage write per burst. */
  const persist = () => {
    persistScheduled = false
    if (pending.length === 0) return
    const events = pending
    pending = []
    // A burst beyond the bound loses its oldest events here, announced, before anything is written.
    const overflow = events.length - maxEvents
    if (overflow > 0) dropped(events.splice(0, overflow), 'overflow')
    store.append(events)
    emit('change', undefined)
  }

  /**
   * Stored events that this page may not send (it is not the sender, or no tab is): looked at
   * again after a while, so they go even if no other tab is left to send them.
   */
  const watchOthers = () => {
    if (!sender.isSender() && storage.keys(store.prefix).some((key) => !storage.isVolatile(key))) {
      schedule(now() + RECHECK_MS)
    }
  }

  /** Chunks this page may send: all of them in the sending tab, else only its memory-only ones. */
  const sendableChunks = () => {
    const all = store.keys()
    return sender.isSender() ? all : all.filter((key) => storage.isVolatile(key))
  }

  /** Reads the sendable events in queue order, applying the age and count bounds. */
  const load = () => {
    const chunks = new Map<string, QueuedEvent[]>()
    for (const key of sendableChunks()) {
      const events = store.read(key)
      if (events) chunks.set(key, events)
    }
    const expired: QueuedEvent[] = []
    // Ages are measured on the service's clock, and only once this page has learned it: an event
    // stamped before then starts ageing now, so a device clock corrected while it waited (days
    // or a year) never expires it. Until then, an event that looks too old by the device clock
    // waits: the next answer (to any request) tells whether it is.
    const serviceNow = clock?.known() ? clock.now() : null
    const held = new Set<string>()
    for (const [key, events] of chunks) {
      if (serviceNow === null) {
        const at = now()
        for (const event of events)
          if (at - (event.serviceAt ?? event.queuedAt) > maxAgeMs) held.add(event.id)
        continue
      }
      const unstamped = events.some((event) => event.serviceAt === undefined)
      const stamped = events.map((event) => ({
        ...event,
        serviceAt: event.serviceAt ?? serviceNow,
      }))
      const fresh = stamped.filter((event) => serviceNow - event.serviceAt <= maxAgeMs)
      if (fresh.length !== events.length || unstamped) {
        expired.push(...stamped.filter((event) => serviceNow - event.serviceAt > maxAgeMs))
        chunks.set(key, fresh)
        store.write(key, fresh)
      }
    }
    dropped(expired, 'expired')

    const ordered = [...chunks].flatMap(([key, events]) =>
      events.filter((event) => !held.has(event.id)).map((event) => ({ key, event })),
    )
    ordered.sort((a, b) => a.event.queuedAt - b.event.queuedAt)
    const overflow = ordered.length - maxEvents
    if (overflow > 0) {
      const oldest = new Set(ordered.slice(0, overflow).map((entry) => entry.event.id))
      remove(chunks, oldest)
      dropped(
        ordered.slice(0, overflow).map((entry) => entry.event),
        'overflow',
      )
      ordered.splice(0, overflow)
    }
    return { chunks, ordered }
  }

  /** Removes events by id from the chunks that hold them, rewriting only those chunks. */
  const remove = (chunks: Map<string, QueuedEvent[]>, ids: ReadonlySet<string>) => {
    for (const [key, events] of chunks) {
      const kept = events.filter((event) => !ids.has(event.id))
      if (kept.length !== events.length) {
        chunks.set(key, kept)
        store.write(key, kept)
      }
    }
  }

  const dropped = (
    events: readonly QueuedEvent[],
    reason: DropReason,
    error?: { code: string; message: string },
  ) => {
    if (events.length === 0) return
    const why =
      reason === 'expired'
        ? `older than ${Math.round(maxAgeMs / 3_600_000)} hours`
        : reason === 'overflow'
          ? `over the queue's bound of ${maxEvents} events`
          : reason === 'invalid'
            ? `outside the contract's bounds`
            : `refused by the service${error ? ` (${error.code}: ${error.message})` : ''}`
    warn(`Dropped ${events.length} event${events.length === 1 ? '' : 's'}: ${why}.`)
    for (const event of events) {
      emit('event:dropped', { event: stripped(event), reason, ...(error ? { error } : {}) })
    }
  }

  // --- sending ---------------------------------------------------------------------------

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

  const connection = (): Connection => {
    if (!options.isOnline()) return { state: 'offline' }
    const delivery = readDelivery()
    if (pauseLeft(delivery) > 0) {
      return { state: 'rate-limited', until: delivery.pausedUntil }
    }
    if (backoffLeft(delivery) > 0) return { state: 'retrying', at: delivery.nextAttemptAt }
    return { state: 'online' }
  }

  const canSend = options.canSend ?? (() => true)

  /** The next batch: queue order, up to the batch limit and the body's byte bound. */
  const nextBatch = (ordered: ReadonlyArray<{ event: QueuedEvent }>) => {
    const waiting = ordered.map((entry) => entry.event).filter((event) => !inFlight.has(event.id))
    const preferred = waiting.filter((event) => !heldBack.has(event.id))
    const candidates = preferred.length > 0 ? preferred : waiting.slice(0, 1)
    const batch: QueuedEvent[] = []
    let bytes = ENVELOPE_BYTES
    for (const event of candidates) {
      const size = sizeOf(stripped(event)) + 1
      if (batch.length >= batchLimit || bytes + size > MAX_BODY_BYTES) break
      batch.push(event)
      bytes += size
    }
    return batch
  }

  /** Records a retryable failure: the backoff grows, and the same failure twice cuts the batch. */
  const backOff = (delivery: Delivery, batch: readonly QueuedEvent[], failure: ApiError) => {
    if (failure.status === 0 && failure.code === 'network_error') {
      const signature = `${batch[0]?.id}:${batch.length}:${failure.message}`
      if (signature === lastFailure) {
        if (batch.length === 1 && batch[0]) heldBack.add(batch[0].id)
        else batchLimit = Math.max(1, Math.floor(batch.length / 2))
        lastFailure = ''
      } else {
        lastFailure = signature
      }
    }
    const attempt = delivery.attempt + 1
    return {
      ...delivery,
      attempt,
      nextAttemptAt: now() + backoffMs(attempt, options.random()),
      since: now(),
    }
  }

  /**
   * One pass over the queue: batches until it is empty or a request fails. Nothing goes while a
   * 429's pause or a backoff runs: the pass only sets a timer for its end.
   */
  async function pass(): Promise<void> {
    persist()
    if (!canSend()) return
    if (!options.isOnline()) return // no request, no attempt used; `online` tries again
    let delivery = readDelivery()
    const wait = Math.max(pauseLeft(delivery), backoffLeft(delivery))
    if (wait > 0) {
      schedule(now() + wait)
      return
    }

    for (;;) {
      if (destroyed) return
      const { chunks, ordered } = load()
      const batch = nextBatch(ordered)
      if (batch.length === 0) {
        watchOthers()
        emit('change', undefined)
        return
      }
      // Re-checked before each send: another tab may have taken over.
      if (!sender.isSender()) {
        const own = volatileIds(chunks)
        if (!batch.every((event) => own.has(event.id))) {
          watchOthers()
          return
        }
      }

      for (const event of batch) inFlight.add(event.id)
      let results: Awaited<ReturnType<ApiClient['sendEvents']>>['results']
      try {
        results = (await api.sendEvents(batch.map(stripped))).results
      } catch (error) {
        const failure =
          error instanceof ApiError
            ? error
            : new ApiError({
                status: 0,
                type: 'network_error',
                code: 'network_error',
                message: messageOf(error),
              })
        const fresh = load().chunks
        if (failure.status === 429) {
          // Retry-After says how long; a 429 without a usable one backs off like a 5xx.
          delivery =
            failure.retryAfterMs > 0
              ? { ...delivery, pausedUntil: now() + failure.retryAfterMs, since: now() }
              : backOff(delivery, batch, failure)
          writeDelivery(delivery)
          const until = Math.max(delivery.pausedUntil, delivery.nextAttemptAt)
          emit('ratelimited', { until })
          schedule(until)
        } else if (failure.retryable) {
          if (options.isOnline()) {
            bumpAttempts(fresh, batch)
            delivery = backOff(delivery, batch, failure)
            writeDelivery(delivery)
            schedule(delivery.nextAttemptAt)
          }
        } else {
          // The service's own final answer (400, 401, 403, 404, 413...): these events can
          // never succeed.
          remove(fresh, new Set(batch.map((event) => event.id)))
          dropped(batch, 'rejected', { code: failure.code, message: failure.message })
        }
        emit('change', undefined)
        if (failure.retryable) return
        continue
      } finally {
        for (const event of batch) inFlight.delete(event.id)
      }

      lastFailure = ''
      batchLimit = Math.min(MAX_EVENTS_PER_REQUEST, batchLimit * 2)
      const byId = new Map(batch.map((event) => [event.id, event]))
      const done = new Set<string>()
      const refused: Array<{ event: QueuedEvent; error: { code: string; message: string } }> = []
      for (const result of results) {
        const event = result.id === null ? undefined : byId.get(result.id)
        if (!event) continue
        done.add(event.id)
        if (result.status === 'rejected') {
          refused.push({ event, error: result.error ?? { code: 'rejected', message: 'Rejected.' } })
        }
      }
      remove(load().chunks, done)
      if (delivery.attempt !== 0 || delivery.pausedUntil !== 0) {
        delivery = IDLE
        writeDelivery(delivery)
      }
      for (const result of results) {
        const event = result.id === null ? undefined : byId.get(result.id)
        if (event && result.status !== 'rejected')
          emit('event:sent', { event: stripped(event), status: result.status })
      }
      for (const { event, error } of refused) dropped([event], 'rejected', error)
      emit('change', undefined)
      // An answer that confirmed nothing would loop forever: leave the rest for the next pass.
      if (done.size === 0) return
    }
  }

  const volatileIds = (chunks: Map<string, QueuedEvent[]>) => {
    const ids = new Set<string>()
    for (const [key, events] of chunks)
      if (storage.isVolatile(key)) for (const e of events) ids.add(e.id)
    return ids
  }

  const bumpAttempts = (chunks: Map<string, QueuedEvent[]>, batch: readonly QueuedEvent[]) => {
    const ids = new Set(batch.map((event) => event.id))
    for (const [key, events] of chunks) {
      if (!events.some((event) => ids.has(event.id))) continue
      const next = events.map((event) =>
        ids.has(event.id) ? { ...event, attempts: event.attempts + 1 } : event,
      )
      chunks.set(key, next)
      store.write(key, next)
    }
  }

  /** Tries the queue once, now; concurrent calls share the pass under way. */
  function flush(): Promise<void> {
    if (destroyed) return Promise.resolve()
    if (!running) {
      running = pass().finally(() => {
        running = null
      })
    }
    return running
  }

  /** Lets the next pass go without waiting for the backoff (a 429's pause still holds). */
  const skipBackoff = () => {
    const delivery = readDelivery()
    if (delivery.nextAttemptAt !== 0) writeDelivery({ ...delivery, nextAttemptAt: 0 })
  }

  /** Like flush, but waits for a 429's Retry-After to end first. */
  async function flushRespectingPause(): Promise<void> {
    persist()
    const pause = options.isOnline() ? pauseLeft(readDelivery()) : 0
    if (pause > 0) {
      await new Promise<void>((resolve) => timers.setTimeout(resolve, pause))
    }
    // A backoff timer is not waited for: flush() tries at once.
    skipBackoff()
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
     * backoff; used by start and the sender role. In a microtask, so listeners attached right
     * after start hear what the first pass says.
     */
    kick: () => queueMicrotask(() => void flush()),
    /** Another tab stored events: they go with this tab's, after the coalescing window. */
    wake: () => schedule(now() + SEND_DELAY_MS),
    /** Back online: the failures of the offline time say nothing of the service; try now. */
    online() {
      skipBackoff()
      queueMicrotask(() => void flush())
    },
    /** Page hide: hands what is left to sendBeacon. The events stay stored until confirmed. */
    beacon() {
      persist()
      if (!options.sendBeacon || !options.isOnline() || !canSend()) return
      if (pauseLeft(readDelivery()) > 0) return
      let events = load().ordered.map((entry) => stripped(entry.event))
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
    storedEvents: () => load().ordered.map((entry) => entry.event),
    destroy() {
      persist()
      destroyed = true
      if (timer !== undefined) timers.clearTimeout(timer)
      timer = undefined
    },
  }
}

export type Queue = ReturnType<typeof createQueue>
