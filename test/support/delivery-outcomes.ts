// What became of each tracked event, for the delivery tests that set the world against the
// widget (test/core/delivery-{backoff,bounded-bodies,trusted-time,refusals}.test.ts and
// test/core/hostile-host-*.test.ts): what a tab announced, by event id, and the service's word
// on whether it counted each one; a stand-in for what sits between page and service.
import { expect, vi } from 'vitest'
import type { FetchLike } from '../../src/api/client.ts'
import { backoffMs } from '../../src/api/retry.ts'
import { type DropReason, SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { START, type Tab, useDeliveryWorld } from './delivery-world.ts'

export interface Seen {
  queued: string[]
  sent: string[]
  dropped: Array<{ id: string; reason: DropReason }>
}

export function record(tab: Tab): Seen {
  const seen: Seen = { queued: [], sent: [], dropped: [] }
  tab.on('event:queued', ({ event }) => seen.queued.push(event.id))
  tab.on('event:sent', ({ event }) => seen.sent.push(event.id))
  tab.on('event:dropped', ({ event, reason }) => seen.dropped.push({ id: event.id, reason }))
  return seen
}

export const everyOnce = (ids: readonly string[]) => ids.map(() => 'duplicate')

export interface Interceptor {
  /** Every POST /v1/events the page attempted, answered or not. */
  eventRequests: number
  fetch: FetchLike
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  })

export const serviceError = (status: number, code: string) =>
  json(status, { error: { type: 'api_error', code, message: 'injected' } })

/**
 * The most requests a backoff schedule allows in `window` ms of failures, the first made when
 * the coalescing window ends: with full jitter each wait is at least 0, so this bounds from the
 * mean schedule (every draw 0.5) with a margin of two.
 */
export function meanScheduleRequests(window: number): number {
  let at = SEND_DELAY_MS
  let requests = 0
  while (at <= window) {
    requests += 1
    at += backoffMs(requests, 0.5)
  }
  return requests
}

/** Tracks a signup every `every` ms for `duration` ms. */
export async function trackSteadily(tab: Tab, duration: number, every: number, prefix = 'u') {
  for (let at = 0; at < duration; at += every) {
    expect(tab.track('signup', { userId: `${prefix}${at}` })).toBe(true)
    await vi.advanceTimersByTimeAsync(every)
  }
}

/**
 * Registers the delivery world (from START) for the file's tests, with the checks that ask its
 * service what it counted.
 */
export function useDeliveryOutcomes() {
  const scene = useDeliveryWorld(START)

  /** Whether the service counted these ids: 'duplicate' means it had (call it last). */
  const counted = (ids: readonly string[]) => scene.world.counted(ids)

  /** Every event accepted once (the service says duplicate now) or announced as dropped. */
  async function expectEachOnceOrDropped(seen: Seen) {
    const dropped = new Set(seen.dropped.map(({ id }) => id))
    const kept = seen.queued.filter((id) => !dropped.has(id))
    expect(new Set(seen.sent)).toEqual(new Set(kept))
    expect(await scene.world.counted(kept)).toEqual(everyOnce(kept))
  }

  /**
   * The world's fetch behind a stand-in for what sits between page and service: `answer` may
   * answer an events request itself (or throw, as a browser refusing it would); otherwise it
   * goes through.
   */
  function intercept(
    answer: (init: RequestInit) => Promise<Response> | Response | undefined,
  ): Interceptor {
    const interceptor: Interceptor = {
      eventRequests: 0,
      fetch: async (input, init) => {
        if (new URL(input).pathname !== '/v1/events') return scene.world.fetch(input, init)
        interceptor.eventRequests += 1
        const own = await answer(init)
        return own ?? scene.world.fetch(input, init)
      },
    }
    return interceptor
  }

  return {
    scene,
    open: scene.open,
    openReady: scene.openReady,
    counted,
    expectEachOnceOrDropped,
    intercept,
  }
}
