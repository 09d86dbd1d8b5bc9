// What the service's answer to a batch of events means for each of them. Pure: the send pass
// (pass.ts) acts on it.
import type { EventResult } from '../api/wire.ts'
import type { ApiError } from '../shared/errors.ts'
import type { QueuedEvent } from './chunks.ts'

/**
 * A request that failed, by what the failure says of the events in it:
 * - `paused`: a 429 with a usable Retry-After; nothing goes until it has passed.
 * - `retry`: the network, a 5xx or 408, a 429 without a usable Retry-After, or an answer that is
 *   not the service's own (a proxy's or a CDN's page): nothing is said of the events; back off.
 * - `key`: the service's own refusal of the key or the address (401, 403, 404, 405, ...): about
 *   the site's set-up, not the events, which stay queued with a long backoff.
 * - `events`: the service's own refusal of what was sent (400, 413, 422): final for the one bad
 *   event, which is found by halving the batch, so the good events beside it still go.
 */
export type Verdict = 'paused' | 'retry' | 'key' | 'events'

export function verdictOf(failure: ApiError): Verdict {
  if (failure.status === 429 && failure.retryAfterMs > 0) return 'paused'
  if (failure.retryable) return 'retry'
  return failure.status === 400 || failure.status === 413 || failure.status === 422
    ? 'events'
    : 'key'
}

export interface Outcome {
  sent: Array<{ event: QueuedEvent; status: 'accepted' | 'duplicate' }>
  refused: Array<{ event: QueuedEvent; error: { code: string; message: string } }>
  /** Events the answer did not mention: they stay queued, retried like after a 5xx. */
  unanswered: QueuedEvent[]
}

/** The answer's results for the batch, each event taken once; results for other ids ignored. */
export function outcomeOf(batch: readonly QueuedEvent[], results: readonly EventResult[]) {
  const waiting = new Map(batch.map((event) => [event.id, event]))
  const outcome: Outcome = { sent: [], refused: [], unanswered: [] }
  for (const result of results) {
    const event = result.id === null ? undefined : waiting.get(result.id)
    if (!event) continue
    waiting.delete(event.id)
    if (result.status === 'rejected') {
      outcome.refused.push({
        event,
        error: result.error ?? { code: 'rejected', message: 'Rejected.' },
      })
    } else {
      outcome.sent.push({ event, status: result.status })
    }
  }
  outcome.unanswered = [...waiting.values()]
  return outcome
}
