// The durable event queue. An event is written to storage (chunks.ts, within its bounds) before
// any request is made and is removed only when the service has confirmed it (accepted or
// duplicate) or refused it for good. Storing is this module's; sending is sending.ts's (the send
// pass, the sender lock, the backoff the tabs share), which the queue asks for when there is
// something to send: given at once (the ESM core), or loaded (the script tag's delivery file).
import type { ApiClient } from '../api/client.ts'
import type { ServiceClock } from '../api/clock.ts'
import type { TrackedEvent } from '../api/wire.ts'
import type { Timers } from '../shared/timers.ts'
import { DAY_MS } from '../shared/timers.ts'
import { createAnnouncer, type Emit, type QueueEvents } from './announce.ts'
import {
  createChunkStore,
  DEFAULT_MAX_STORED_CHARS,
  type DropReason,
  type QueuedEvent,
} from './chunks.ts'
import { SEND_DELAY_MS } from './delivery.ts'
import type { LockManagerLike } from './sender.ts'
import type { Connection, CreateSending, Sending } from './sending.ts'
import type { SafeStorage } from './storage.ts'

export type { Connection, DropReason, QueuedEvent, QueueEvents }
export { SEND_DELAY_MS }

export interface QueueOptions {
  storage: SafeStorage
  /** The storage namespace, e.g. `referral:test:abc123:`. */
  namespace: string
  api: Pick<ApiClient, 'sendEvents' | 'beacon'>
  /**
   * What sends the queue: createSending itself (the ESM core: sending starts at once), or a
   * function that loads it (the script tag, the first time there is something to send; it settles
   * to undefined where it could not, and is asked again the next time).
   */
  sending: CreateSending | { load: () => Promise<CreateSending | undefined> }
  /** The page's Web Locks, for the sender lock; without them every tab sends. */
  locks: LockManagerLike | undefined
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
  maxEvents?: number | undefined
  maxAgeMs?: number | undefined
  /** Characters for everything the widget stores under its namespace. */
  maxStoredChars?: number
  /** navigator.sendBeacon, when the page has it. */
  sendBeacon?: ((url: string, body: string) => boolean) | undefined
}

export const DEFAULT_MAX_EVENTS = 1000
export const DEFAULT_MAX_AGE_MS = 7 * DAY_MS

/* @__NO_SIDE_EFFECTS__ */
export function createQueue(options: QueueOptions) {
  const { storage, namespace, now, emit } = options
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS
  const clock = options.clock

  let pending: QueuedEvent[] = []
  let persistScheduled = false
  let destroyed = false
  /** Ids of events in the request under way, so a second pass never sends them twice. */
  const inFlight = new Set<string>()

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

  let sending: Sending | undefined
  const start = (create: CreateSending) => {
    sending = create({
      ...options,
      store,
      canSend: options.canSend ?? (() => true),
      dropped,
      inFlight,
      clock,
      maxEvents,
      maxAgeMs,
      sendBeacon: options.sendBeacon,
      persist,
    })
    if (destroyed) sending.destroy()
    return sending
  }
  const given = options.sending
  if (typeof given === 'function') start(given)
  /** What sends, once it is there; loaded the first time it is needed. */
  const send = async (then: (sending: Sending) => unknown): Promise<unknown> => {
    if (sending) return then(sending)
    if (typeof given === 'function') return
    const create = await given.load()
    return create && !destroyed && then(sending ?? start(create))
  }
  /** Something is stored (or gathered): what sends is needed. */
  const waiting = () => pending.length > 0 || store.keys().length > 0

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
          void send((it) => it.schedule(now() + SEND_DELAY_MS))
        })
      }
      return true
    },
    /** Settles once the queue has been tried (see WIDGET.md); at once when nothing waits. */
    flush: async (): Promise<void> => {
      if (sending || waiting()) await send((it) => it.flush())
    },
    /**
     * Has what sends `act` (kick, online, watch...): at once where it is there; else loaded first,
     * where something waits to be sent (or `always`: another tab's events may).
     */
    send(act: (sending: Sending) => unknown, always = false) {
      if (sending || always || waiting()) void send(act)
    },
    /** What sends, where it is there (page hide and show: its lock and its beacon). */
    sending: () => sending,
    /** Writes what was gathered (page hide: it stays stored whatever is sent). */
    persist,
    /** Forgets events gathered in this task and not yet written (forget, consent withdrawn). */
    discardPending() {
      pending = []
    },
    /** Events stored (in any tab) or gathered, not yet confirmed by the service. */
    size: () => pending.length + store.count(),
    connection: (): Connection =>
      sending?.connection() ?? { state: options.isOnline() ? 'online' : 'offline' },
    destroy() {
      persist()
      destroyed = true
      sending?.destroy()
    },
  }
}

export type Queue = ReturnType<typeof createQueue>
