// What the queue tells the page: every event it stores, sends or drops, with the reason it
// dropped one, and one console warning per drop.
import type { TrackedEvent } from '../api/wire.ts'
import type { ApiError } from '../shared/errors.ts'
import { warn } from '../shared/log.ts'
import { type DropReason, type QueuedEvent, stripped } from './chunks.ts'

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
  /** A request failed and its events wait (the core's own: what the debug mode explains). */
  unsent: { error: ApiError; retryAt: number }
}

export type Emit = <K extends keyof QueueEvents>(name: K, payload: QueueEvents[K]) => void

export type Dropped = (
  events: readonly QueuedEvent[],
  reason: DropReason,
  error?: { code: string; message: string },
) => void

/* @__NO_SIDE_EFFECTS__ */
export function createAnnouncer(emit: Emit, bounds: { maxEvents: number; maxAgeMs: number }) {
  /** The one console warning of a drop. */
  const say = (count: number, why: string) =>
    warn(`Dropped ${count} event${count === 1 ? '' : 's'}: ${why}.`)

  /** Events that fell off a bound, expired or were refused for good. */
  const dropped: Dropped = (events, reason, error) => {
    if (events.length === 0) return
    say(
      events.length,
      reason === 'expired'
        ? `older than ${Math.round(bounds.maxAgeMs / 3_600_000)} hours`
        : reason === 'overflow'
          ? `over the queue's bound of ${bounds.maxEvents} events or its storage budget`
          : reason === 'invalid'
            ? `outside the contract's bounds`
            : `refused by the service${error ? ` (${error.code}: ${error.message})` : ''}`,
    )
    for (const event of events) {
      emit('event:dropped', { event: stripped(event), reason, ...(error ? { error } : {}) })
    }
  }

  /** Stored values outside the contract's bounds, by the id they carry where they have one. */
  const invalid = (values: readonly unknown[]) => {
    if (values.length === 0) return
    say(values.length, "outside the contract's bounds (malformed or oversized)")
    for (const value of values) {
      const { id, type } = (typeof value === 'object' && value !== null ? value : {}) as {
        id?: unknown
        type?: unknown
      }
      if (typeof id !== 'string') continue
      emit('event:dropped', {
        event: { id: id.slice(0, 64), type: type === 'click' ? 'click' : 'signup', visitorId: '' },
        reason: 'invalid',
      })
    }
  }

  return { dropped, invalid }
}
