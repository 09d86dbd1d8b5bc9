// The queue's storage: events in chunks of up to one request each, under `<namespace>q:`.
// Producers (any tab) write chunks that never change afterwards; only the sending tab rewrites
// or removes them, so tabs never overwrite each other's writes. Every stored event is checked
// against the contract's bounds one by one: a broken chunk is discarded, a broken event dropped
// from its chunk, and the others kept.
import { MAX_EVENTS_PER_REQUEST, type TrackedEvent, trackedEventShape } from '../api/wire.ts'
import { warnOnce } from '../shared/log.ts'
import { array, literal, number, object, optional, type Parser, parse } from '../shared/parse.ts'
import { jsonOf, type SafeStorage } from './storage.ts'

const VERSION = 1

export interface QueuedEvent extends TrackedEvent {
  /** Device time: the queue's order. */
  queuedAt: number
  attempts: number
  /**
   * The estimated service time from which the event's age is measured, set where the page had
   * learned the service's time: a device clock corrected while the event waited never ages it.
   */
  serviceAt?: number | undefined
}

/** `invalid`: outside the contract's bounds, found in storage or tracked. */
export type DropReason = 'rejected' | 'expired' | 'overflow' | 'invalid'

const parseChunk = object({ v: literal(VERSION), events: array((value: unknown) => value) })

const parseShape: Parser<QueuedEvent> = object({
  ...trackedEventShape,
  queuedAt: number,
  attempts: number,
  serviceAt: optional(number),
})

/** `{"events":[` and `]}` around the events, and the beacon form's key beside them. */
export const ENVELOPE_BYTES = 16
export const BEACON_KEY_BYTES = 100
/** The event as sent, in bytes: every field is ASCII once its pattern has been checked. */
export const sizeOf = (event: TrackedEvent) => JSON.stringify(event).length

export const stripped = ({
  queuedAt: _queuedAt,
  attempts: _attempts,
  serviceAt: _serviceAt,
  ...event
}: QueuedEvent): TrackedEvent => event

/**
 * A stored event within the contract's bounds (the pattern of every field, the field its type
 * requires), or null. One that is not can never be delivered: it is dropped, and never holds the
 * others. Within the patterns an event is a few hundred bytes, far under any body's bound.
 */
export function parseQueuedEvent(value: unknown): QueuedEvent | null {
  const event = parse(parseShape, value)
  if (!event) return null
  return (event.type === 'click' ? event.code === undefined : event.userId === undefined)
    ? null
    : event
}

/* @__NO_SIDE_EFFECTS__ */
export function createChunkStore(options: {
  storage: SafeStorage
  namespace: string
  /** Unique per page, to name chunks. */
  tabId: string
  now: () => number
  /** Stored values that are not events of the contract's shape, just removed. */
  onInvalid: (values: readonly unknown[]) => void
}) {
  const { storage, now } = options
  const prefix = `${options.namespace}q:`
  let sequence = 0

  const write = (key: string, events: readonly QueuedEvent[]) => {
    if (events.length === 0) storage.remove(key)
    else storage.set(key, JSON.stringify({ v: VERSION, events }))
  }

  const valid = (key: string) => parse(parseChunk, jsonOf(storage.get(key)))?.events

  return {
    prefix,
    write,
    /** The chunk's valid events; invalid ones are dropped from it, announced. */
    read(key: string): QueuedEvent[] | null {
      const values = valid(key)
      if (!values) {
        // Broken, foreign or from another version: discarded, never trusted.
        storage.remove(key)
        warnOnce('Discarded queue data in storage that was broken or from another version.')
        return null
      }
      const events: QueuedEvent[] = []
      const invalid: unknown[] = []
      for (const value of values) {
        const event = parseQueuedEvent(value)
        if (event) events.push(event)
        else invalid.push(value)
      }
      if (invalid.length > 0) {
        write(key, events)
        options.onInvalid(invalid)
      }
      return events
    },
    /** Writes new events as chunks of one request each: every stored value stays small. */
    append(events: readonly QueuedEvent[]) {
      for (let i = 0; i < events.length; i += MAX_EVENTS_PER_REQUEST) {
        sequence += 1
        write(
          `${prefix}${now().toString(36)}-${options.tabId}-${sequence}`,
          events.slice(i, i + MAX_EVENTS_PER_REQUEST),
        )
      }
    },
    /** Chunk keys in writing order. */
    keys: () => storage.keys(prefix).sort(),
    /** Valid stored events, in any tab's chunks, without changing anything. */
    count() {
      let count = 0
      for (const key of storage.keys(prefix)) {
        count += (valid(key) ?? []).filter((event) => parseQueuedEvent(event) !== null).length
      }
      return count
    },
  }
}

export type ChunkStore = ReturnType<typeof createChunkStore>
