// The queue's storage: events in chunks of up to one request each, under `<namespace>q:`.
// Producers (any tab) write chunks that never change afterwards; only the sending tab rewrites
// or removes them, so tabs never overwrite each other's writes. Every stored event is checked
// against the contract's bounds one by one: a broken chunk is discarded (the events in it that
// can be identified announced), a broken event dropped from its chunk, and the others kept. A
// chunk that could not be read (the storage call threw) is not broken: it is left as it is.
// The bounds hold when writing: at most `maxEvents` events, and at most `maxChars` characters
// for everything stored under the namespace, so the host's own storage always has room.
import { MAX_EVENTS_PER_REQUEST, type TrackedEvent, trackedEventShape } from '../api/wire.ts'
import { toJson } from '../shared/json.ts'
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

/** Everything the widget stores, in characters (UTF-16 code units, keys included). */
export const DEFAULT_MAX_STORED_CHARS = 300_000

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
export const sizeOf = (event: TrackedEvent) => toJson(event).length

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

/** The events a broken chunk's text still names, as `{ id, type }` (ids come first in a chunk). */
function identify(raw: string): unknown[] {
  const found: unknown[] = []
  for (const [, id, rest = ''] of raw.matchAll(/\{"id":"([A-Za-z0-9_-]{8,64})"([^{}]*)/g))
    found.push({ id, type: rest.includes('"type":"click"') ? 'click' : 'signup' })
  return found
}

/* @__NO_SIDE_EFFECTS__ */
export function createChunkStore(options: {
  storage: SafeStorage
  namespace: string
  /** Unique per page, to name chunks. */
  tabId: string
  now: () => number
  maxEvents: number
  maxChars: number
  /** Stored values that are not events of the contract's shape: removed, to be announced. */
  onInvalid: (values: readonly unknown[]) => void
}) {
  const { storage, namespace, now } = options
  const prefix = `${namespace}q:`
  let sequence = 0
  /** The events of each chunk text already read: a scan parses only what changed. */
  const parsed = new Map<string, { raw: string; events: QueuedEvent[] }>()

  const textOf = (events: readonly QueuedEvent[]) => toJson({ v: VERSION, events })

  const write = (key: string, events: readonly QueuedEvent[]) => {
    parsed.delete(key)
    if (events.length === 0) storage.remove(key)
    else storage.set(key, textOf(events))
  }

  /**
   * The chunk's valid events (invalid ones dropped from it, announced), null when it was broken
   * (removed, its identifiable events announced), undefined when storage could not be read.
   */
  function read(key: string): QueuedEvent[] | null | undefined {
    const raw = storage.get(key)
    if (raw === undefined) return undefined
    if (raw === null) return null
    const memo = parsed.get(key)
    if (memo?.raw === raw) return memo.events
    const values = parse(parseChunk, jsonOf(raw))?.events
    if (!values) {
      // Broken, foreign or from another version: discarded, never trusted.
      storage.remove(key)
      parsed.delete(key)
      warnOnce('Discarded broken queue data in storage.')
      options.onInvalid(identify(raw))
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
    } else {
      parsed.set(key, { raw, events })
    }
    return events
  }

  const keys = () => storage.keys(prefix).sort()
  /** This page's n-th chunk's key: the time, the tab, the number. */
  const chunkKey = (n: number) => `${prefix}${now().toString(36)}-${options.tabId}-${n}`

  /** What the namespace holds now: its characters, and each readable chunk's events. */
  function scan() {
    let chars = 0
    const chunks = new Map<string, QueuedEvent[]>()
    for (const key of storage.keys(namespace)) {
      const raw = storage.get(key)
      if (typeof raw === 'string') chars += key.length + raw.length
      if (!key.startsWith(prefix)) continue
      const events = read(key)
      if (events) chunks.set(key, events)
    }
    return { chars, chunks }
  }

  /**
   * Makes room for `incoming` under both bounds: the oldest events fall off first (new ones too,
   * if they alone are over), never one in `keep` (this page's request under way). Returns what
   * fell off, to be announced, and what of `incoming` is left to write.
   */
  function fit(incoming: readonly QueuedEvent[], keep: ReadonlySet<string>) {
    const { chars, chunks } = scan()
    const keyChars = chunkKey(sequence + 1).length
    const chunkCount = Math.ceil(incoming.length / MAX_EVENTS_PER_REQUEST)
    let used = chars + (incoming.length > 0 ? textOf(incoming).length + keyChars * chunkCount : 0)
    let count = incoming.length
    for (const events of chunks.values()) count += events.length
    if (count <= options.maxEvents && used <= options.maxChars) return { fell: [], kept: incoming }

    const stored = [...chunks].flatMap(([key, events]) => events.map((event) => ({ key, event })))
    stored.sort((a, b) => a.event.queuedAt - b.event.queuedAt)
    const candidates = [
      ...stored.filter((entry) => !keep.has(entry.event.id)),
      ...incoming.map((event) => ({ key: '', event })),
    ]
    const fell = new Set<QueuedEvent>()
    const left = new Map([...chunks].map(([key, events]) => [key, events.length]))
    for (const { key, event } of candidates) {
      if (count <= options.maxEvents && used <= options.maxChars) break
      fell.add(event)
      count -= 1
      const remaining = (left.get(key) ?? 0) - 1
      left.set(key, remaining)
      // A chunk emptied goes whole (key and all); otherwise the event and its comma.
      used -=
        key !== '' && remaining === 0
          ? key.length + (storage.get(key)?.length ?? 0)
          : toJson(event).length + 1
    }
    for (const [key, events] of chunks) {
      const kept = events.filter((event) => !fell.has(event))
      if (kept.length !== events.length) write(key, kept)
    }
    return { fell: [...fell], kept: incoming.filter((event) => !fell.has(event)) }
  }

  return {
    prefix,
    read,
    write,
    keys,
    fit,
    /** Writes new events as chunks of one request each: every stored value stays small. */
    append(events: readonly QueuedEvent[]) {
      for (let i = 0; i < events.length; i += MAX_EVENTS_PER_REQUEST) {
        sequence += 1
        write(chunkKey(sequence), events.slice(i, i + MAX_EVENTS_PER_REQUEST))
      }
    },
    /** Valid stored events, in any tab's chunks. */
    count() {
      let count = 0
      for (const key of keys()) count += read(key)?.length ?? 0
      return count
    },
  }
}

export type ChunkStore = ReturnType<typeof createChunkStore>
