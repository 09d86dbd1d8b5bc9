// What the send pass may send now: every stored chunk (any tab's) read in queue order, with the age and
// count bounds applied. Ages are measured on the service's clock, and only once this page has
// learned it: an event stamped before then starts ageing now, so a device clock corrected while
// it waited (days or a year) never expires it. Until then, an event that looks too old by the
// device clock waits: the next answer (to any request) tells whether it is.
// The one event two tabs may both hold is a record the loader kept (core/kept.ts), its id the
// same in each: two tabs starting at once may both take it before either removed it. So those
// confirmed lately (by any tab, `done`) are remembered, and a pass sends none of them again.
import type { ServiceClock } from '../api/clock.ts'
import type { Dropped } from './announce.ts'
import type { ChunkStore, QueuedEvent } from './chunks.ts'
import type { SafeStorage } from './storage.ts'

export type Chunks = Map<string, QueuedEvent[]>

/**
 * How long confirmed kept events are remembered: a second copy exists only in a tab that took the
 * record at the moment the first did, and is sent by its next pass, within a minute or so. As many
 * as the queue holds are remembered (a page offline may keep that many), so the memory is
 * forgotten once it is that old rather than let it sit in the host's storage.
 */
const DONE_KEPT_MS = 10 * 60_000

/* @__NO_SIDE_EFFECTS__ */
export function createBacklog(options: {
  store: ChunkStore
  storage: SafeStorage
  /** Where the confirmed kept events are remembered (`<namespace>done`). */
  doneKey: string
  clock: ServiceClock | undefined
  now: () => number
  maxAgeMs: number
  maxEvents: number
  /** Ids of this page's request under way: never dropped to make room. */
  inFlight: ReadonlySet<string>
  dropped: Dropped
}) {
  const { store, storage, clock, now, maxAgeMs } = options

  /** Whether anything may wait to be sent: a chunk is stored, or the listing could not be read. */
  function any() {
    const failures = storage.failures
    return store.keys().length > 0 || storage.failures !== failures
  }

  /**
   * The kept events confirmed lately, as stored (`<time> <id> <id>...`): only ever matched against
   * queued events' ids, so whatever else the value holds does nothing.
   */
  const doneKept = () => {
    const [at, ...ids] = (storage.get(options.doneKey) ?? '').split(' ')
    if (now() - Number(at) < DONE_KEPT_MS) return ids
    storage.remove(options.doneKey) // forgotten: nothing of it left in the host's storage
    return []
  }

  /**
   * Removes events by id from the chunks that hold them, rewriting only those chunks. `confirmed`:
   * the service took them (a kept one is remembered as done).
   */
  function remove(chunks: Chunks, ids: ReadonlySet<string>, confirmed?: boolean) {
    for (const [key, events] of chunks) {
      const kept = events.filter((event) => !ids.has(event.id))
      if (kept.length !== events.length) {
        chunks.set(key, kept)
        store.write(key, kept)
      }
    }
    const done = [...ids].filter((id) => id.startsWith('kept_'))
    if (confirmed && done.length > 0)
      storage.set(
        options.doneKey,
        [now(), ...done, ...doneKept()].slice(0, options.maxEvents + 1).join(' '),
      )
  }

  /** Events sent and not answered: one more attempt each, in the chunks that hold them. */
  function bumpAttempts(chunks: Chunks, batch: readonly QueuedEvent[]) {
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

  /**
   * The stored events in queue order, the age and count bounds applied. `unread`: a chunk
   * could not be read just now (left as it is): the pass tries again later.
   */
  function load() {
    const failures = storage.failures
    const chunks: Chunks = new Map()
    for (const key of store.keys()) {
      const events = store.read(key)
      if (events) chunks.set(key, events)
    }
    remove(chunks, new Set(doneKept()))
    const unread = storage.failures !== failures
    const expired: QueuedEvent[] = []
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
    options.dropped(expired, 'expired')

    // One event in two chunks (two tabs took one record the loader kept, at once) goes out once;
    // its answer removes it from both.
    const skip = new Set(held)
    const ordered = [...chunks].flatMap(([key, events]) =>
      events
        .filter((event) => !skip.has(event.id) && skip.add(event.id))
        .map((event) => ({ key, event })),
    )
    ordered.sort((a, b) => a.event.queuedAt - b.event.queuedAt)
    // Other tabs keep the bound when they write; this catches what they wrote at once.
    const over = ordered.length - options.maxEvents
    if (over > 0) {
      const oldest = ordered
        .filter((entry) => !options.inFlight.has(entry.event.id))
        .slice(0, over)
        .map((entry) => entry.event)
      const ids = new Set(oldest.map((event) => event.id))
      remove(chunks, ids)
      options.dropped(oldest, 'overflow')
      ordered.splice(0, ordered.length, ...ordered.filter((entry) => !ids.has(entry.event.id)))
    }
    return { chunks, ordered, unread }
  }

  return { any, load, remove, bumpAttempts }
}

export type Backlog = ReturnType<typeof createBacklog>
