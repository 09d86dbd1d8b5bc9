// One send pass over the queue: batches until it is empty or a request fails, holding the
// namespace's sender lock (sender.ts) only while there is something to send. Nothing goes while
// a 429's pause, a backoff, or the wait after a refusal of the key runs: the pass only sets a
// timer for its end. What each answer means for the events is answers.ts's; this acts on it.
import type { ApiClient } from '../api/client.ts'
import { backoffMs, refusalBackoffMs } from '../api/retry.ts'
import { MAX_BODY_BYTES, MAX_EVENTS_PER_REQUEST } from '../api/wire.ts'
import { ApiError, messageOf } from '../shared/errors.ts'
import { warn } from '../shared/log.ts'
import type { Dropped, Emit } from './announce.ts'
import { outcomeOf, verdictOf } from './answers.ts'
import type { Backlog, Chunks } from './backlog.ts'
import { ENVELOPE_BYTES, type QueuedEvent, sizeOf, stripped } from './chunks.ts'
import type { Delivery, DeliveryState } from './delivery.ts'
import { coalescing } from './delivery.ts'
import type { Sender } from './sender.ts'
import type { SafeStorage } from './storage.ts'

/** How soon a pass that could not read some stored events (storage threw) looks again. */
export const RECHECK_MS = 5000
const RECHECK_CAP_MS = 30_000

export interface PassOptions {
  api: Pick<ApiClient, 'sendEvents'>
  backlog: Backlog
  delivery: DeliveryState
  sender: Sender
  storage: SafeStorage
  now: () => number
  random: () => number
  isOnline: () => boolean
  canSend: () => boolean
  isDestroyed: () => boolean
  /** Ids of the request under way, so no other pass or bound takes them. */
  inFlight: Set<string>
  schedule: (at: number) => void
  emit: Emit
  dropped: Dropped
}

/* @__NO_SIDE_EFFECTS__ */
export function createSendPass(options: PassOptions) {
  const { backlog, delivery: state, sender, now, emit, inFlight } = options
  /**
   * The batch size. A refusal of the batch's events halves it until the one bad event is alone;
   * so does a request that fails before reaching the network the same way twice (whatever the
   * browser will not send cannot hold the others). Each answered request doubles it back.
   */
  let batchLimit = MAX_EVENTS_PER_REQUEST
  /** The refused batch's events not yet sent alone or in an accepted batch: the bad one is among them. */
  let suspects = new Set<string>()
  let lastFailure = ''
  /** Events that failed alone before reaching the network: behind the others for this page. */
  const heldBack = new Set<string>()
  /** Refusals of the key or the address in a row, and until when this page waits (memory only:
   * a reload tries again at once). */
  let refusals = 0
  let refusedUntil = 0
  /** Passes in a row that could not read some of the storage: each looks again later. */
  let unreadPasses = 0

  const refusedLeft = () => Math.max(0, refusedUntil - now())

  /**
   * The next batch of the events `due` (what was stored when the pass began): queue order, up to
   * the batch limit and the body's byte bound.
   */
  const nextBatch = (ordered: ReadonlyArray<{ event: QueuedEvent }>, due: Set<string>) => {
    const waiting = ordered
      .map((entry) => entry.event)
      .filter((event) => due.has(event.id) && !inFlight.has(event.id))
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
  const backOff = (delivery: Delivery, batch: readonly QueuedEvent[], failure?: ApiError) => {
    if (failure?.status === 0 && failure.code === 'network_error') {
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
    const next: Delivery = {
      ...delivery,
      attempt,
      nextAttemptAt: now() + backoffMs(attempt, options.random()),
      since: now(),
    }
    state.write(next)
    options.schedule(next.nextAttemptAt)
    return next
  }

  /** The service refused the key or the address: the events stay, and the page waits long. */
  const refused = (chunks: Chunks, batch: readonly QueuedEvent[], failure: ApiError) => {
    backlog.bumpAttempts(chunks, batch)
    refusals += 1
    refusedUntil = now() + refusalBackoffMs(refusals, options.random())
    if (refusals === 1) {
      warn(
        `The referral service refused the key or address (${failure.status} ${failure.code}: ${failure.message}): events are kept and tried again later. Check data-key and data-api.`,
      )
    }
    options.schedule(refusedUntil)
  }

  async function run(): Promise<void> {
    if (!options.canSend()) return
    if (!options.isOnline()) return // no request, no attempt used; `online` tries again
    if (waitLeft(state.read())) return
    // Nothing stored: no lock is asked for, so an idle page never holds or waits for one.
    if (!backlog.any()) {
      emit('change', undefined)
      return
    }
    await sender.run(send)
  }

  /** A pause, a backoff or the wait after a refusal runs: only a timer is set for its end. */
  const waitLeft = (delivery: Delivery) => {
    const wait = Math.max(state.pauseLeft(delivery), state.backoffLeft(delivery), refusedLeft())
    if (wait > 0) options.schedule(now() + wait)
    return wait > 0
  }

  /** Batches until the queue is empty or a request fails, as the namespace's only sender. */
  async function send(holding: () => boolean): Promise<void> {
    // Read again under the lock: another tab's pass may have ended with a 429 or a backoff.
    let delivery = state.read()
    if (waitLeft(delivery)) return
    /**
     * What was stored when the pass began goes in it; what any tab tracks meanwhile waits for the
     * next coalescing window, so tabs tracking steadily never keep a pass sending request after
     * request.
     */
    let due: Set<string> | undefined
    for (;;) {
      // Destroyed, or hidden mid-pass (the lock went with it): what is left waits.
      if (options.isDestroyed() || !holding()) return
      const { ordered, unread } = backlog.load()
      due ??= new Set(ordered.map((entry) => entry.event.id))
      const batch = nextBatch(ordered, due)
      unreadPasses = unread ? unreadPasses + 1 : 0
      if (batch.length === 0) {
        if (unread)
          options.schedule(now() + Math.min(RECHECK_CAP_MS, RECHECK_MS * 2 ** (unreadPasses - 1)))
        // What was stored (or became sendable) during the pass goes when its window ends.
        else if (ordered.length > 0) options.schedule(delivery.nextAttemptAt)
        emit('change', undefined)
        return
      }

      for (const event of batch) inFlight.add(event.id)
      let results: Awaited<ReturnType<ApiClient['sendEvents']>>['results']
      try {
        results = (await options.api.sendEvents(batch.map(stripped))).results
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
        const fresh = backlog.load().chunks
        const verdict = verdictOf(failure)
        if (verdict === 'events') {
          // Final, but for one event: halve until it is alone, then drop it alone.
          if (batch.length > 1) {
            suspects = new Set(batch.map((event) => event.id))
            batchLimit = Math.ceil(batch.length / 2)
          } else {
            backlog.remove(fresh, new Set(batch.map((event) => event.id)))
            options.dropped(batch, 'rejected', { code: failure.code, message: failure.message })
            suspects.clear()
            batchLimit = MAX_EVENTS_PER_REQUEST
          }
          emit('change', undefined)
          continue
        }
        if (verdict === 'key') {
          refused(fresh, batch, failure)
        } else if (verdict === 'paused') {
          delivery = { ...delivery, pausedUntil: now() + failure.retryAfterMs, since: now() }
          state.write(delivery)
          options.schedule(delivery.pausedUntil)
        } else if (options.isOnline() || failure.status === 429) {
          if (failure.status !== 429) backlog.bumpAttempts(fresh, batch)
          delivery = backOff(delivery, batch, failure)
        }
        const retryAt =
          verdict === 'key' ? refusedUntil : Math.max(delivery.pausedUntil, delivery.nextAttemptAt)
        if (failure.status === 429) emit('ratelimited', { until: retryAt })
        emit('unsent', { error: failure, retryAt })
        emit('change', undefined)
        return
      } finally {
        for (const event of batch) inFlight.delete(event.id)
      }

      lastFailure = ''
      refusals = 0
      for (const event of batch) suspects.delete(event.id)
      // While a refused batch is searched, its other half goes next, halved: the bad event is there.
      batchLimit =
        suspects.size > 0
          ? Math.ceil(suspects.size / 2)
          : Math.min(MAX_EVENTS_PER_REQUEST, batchLimit * 2)
      const outcome = outcomeOf(batch, results)
      const done = new Set([...outcome.sent, ...outcome.refused].map(({ event }) => event.id))
      const fresh = backlog.load().chunks
      backlog.remove(fresh, done, true)
      // Answered: the other tabs wait the coalescing window before their next request.
      delivery = coalescing(now())
      state.write(delivery)
      for (const { event, status } of outcome.sent)
        emit('event:sent', { event: stripped(event), status })
      for (const { event, error } of outcome.refused) options.dropped([event], 'rejected', error)
      if (outcome.unanswered.length > 0) {
        // The answer left them out: they wait, with the backoff of a 5xx.
        backlog.bumpAttempts(fresh, outcome.unanswered)
        delivery = backOff(delivery, outcome.unanswered)
        emit('change', undefined)
        return
      }
      emit('change', undefined)
    }
  }

  return {
    run,
    refusedLeft,
    /** flush(): the wait after a refusal of the key does not hold an explicit try. */
    skipRefusal() {
      refusedUntil = 0
    },
  }
}
