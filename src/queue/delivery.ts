// The queue's delivery state, shared by the tabs through storage: a 429's pause, the backoff
// after failures, the coalescing window after a request any tab sent, and when each was set (a
// clock now earlier has jumped backwards).
import { BACKOFF_CAP_MS, MAX_RETRY_AFTER_MS } from '../api/retry.ts'
import { toJson } from '../shared/json.ts'
import { literal, number, object, type Parser, parse } from '../shared/parse.ts'
import { jsonOf, type SafeStorage } from './storage.ts'

export interface Delivery {
  v: 1
  /** Set by a 429 with a Retry-After: no request before this time. */
  pausedUntil: number
  /** Failed tries in a row: drives the backoff. */
  attempt: number
  nextAttemptAt: number
  /** When the pause or backoff was set. */
  since: number
}

const parseDelivery: Parser<Delivery> = object({
  v: literal(1),
  pausedUntil: number,
  attempt: number,
  nextAttemptAt: number,
  since: number,
})

export const IDLE: Delivery = { v: 1, pausedUntil: 0, attempt: 0, nextAttemptAt: 0, since: 0 }

/**
 * Events tracked within this window of each other go out in one request; and after a request any
 * tab sent, the others wait as long (a burst of tabs makes one request a window, not one each).
 */
export const SEND_DELAY_MS = 1000

/** After a request the service answered: no next one from any tab before the window ends. */
export const coalescing = (now: number): Delivery => ({
  ...IDLE,
  nextAttemptAt: now + SEND_DELAY_MS,
  since: now,
})

/* @__NO_SIDE_EFFECTS__ */
export function createDeliveryState(storage: SafeStorage, key: string, now: () => number) {
  /**
   * Milliseconds left of a stored pause or retry time. One further ahead than any policy allows,
   * or set at a time that is now in the future, was written before the clock jumped backwards:
   * it is treated as due, so the queue keeps moving (a 429 would simply pause it again).
   */
  const due = (at: number, longest: number, since: number) => {
    const current = now()
    const wait = at - current
    return wait <= 0 || wait > longest || current < since ? 0 : wait
  }
  return {
    read(): Delivery {
      const raw = storage.get(key)
      const delivery = parse(parseDelivery, jsonOf(raw))
      // Broken, foreign or from another version: discarded, never trusted (an unreadable one
      // is left as it is).
      if (typeof raw === 'string' && !delivery) storage.remove(key)
      return delivery ?? IDLE
    },
    write(delivery: Delivery) {
      if (delivery.pausedUntil === 0 && delivery.attempt === 0 && delivery.nextAttemptAt === 0)
        storage.remove(key)
      else storage.set(key, toJson(delivery))
    },
    pauseLeft: (delivery: Delivery) =>
      due(delivery.pausedUntil, MAX_RETRY_AFTER_MS, delivery.since),
    backoffLeft: (delivery: Delivery) =>
      due(delivery.nextAttemptAt, BACKOFF_CAP_MS, delivery.since),
  }
}

export type DeliveryState = ReturnType<typeof createDeliveryState>
