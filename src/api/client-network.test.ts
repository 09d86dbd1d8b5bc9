// The API client when no answer comes: a fetch that throws or rejects, and one that hangs past
// the timeout (fake timers, nothing slept on; shared fixtures: test/support/api-client.ts).
import { describe, expect, it, vi } from 'vitest'
import {
  apiErrorOf,
  clientWith,
  EVENT,
  json,
  LINK,
  restoreTimersAndGlobals,
} from '../../test/support/api-client.ts'
import { ApiError } from '../shared/errors.ts'
import type { FetchLike } from './client.ts'

/** Watches a promise without awaiting it, so a test can tell "still pending" from "settled". */
function watch(promise: Promise<unknown>) {
  const state: { settled: boolean; error: unknown } = { settled: false, error: undefined }
  promise.then(
    () => {
      state.settled = true
    },
    (error: unknown) => {
      state.settled = true
      state.error = error
    },
  )
  return state
}

/** A fetch that never answers, but aborts like the platform's fetch when its signal fires. */
const hangingFetch: FetchLike = (_url, init) =>
  new Promise<Response>((_resolve, reject) => {
    init.signal?.addEventListener('abort', () =>
      reject(new DOMException('The operation was aborted.', 'AbortError')),
    )
  })

restoreTimersAndGlobals()

describe('network failures', () => {
  it('turns a fetch that throws synchronously into a retryable ApiError with status 0', async () => {
    const { client } = clientWith(() => {
      throw new TypeError('fetch is blocked by an extension')
    })
    const error = await apiErrorOf(client.sendEvents([EVENT]))
    expect(error.name).toBe('ApiError')
    expect(error.status).toBe(0)
    expect(error.type).toBe('network_error')
    expect(error.code).toBe('network_error')
    expect(error.retryable).toBe(true)
    expect(error.retryAfterMs).toBe(0)
    expect(error.message).toMatch(/could not be reached/)
  })

  it('turns a rejected fetch into a retryable ApiError with status 0 that keeps the cause', async () => {
    const cause = new TypeError('Failed to fetch')
    const { client } = clientWith(() => Promise.reject(cause))
    const error = await apiErrorOf(client.createLink('camp_abcdefghijklmnop', 'user_42'))
    expect(error.status).toBe(0)
    expect(error.code).toBe('network_error')
    expect(error.retryable).toBe(true)
    expect(error.cause).toBe(cause)
  })
})

describe('timeouts (fake timers, nothing slept on)', () => {
  it('aborts a fetch that does not answer within 15 s and reports a retryable timeout', async () => {
    vi.useFakeTimers()
    const { client, call } = clientWith(hangingFetch)
    const state = watch(client.sendEvents([EVENT]))
    await vi.advanceTimersByTimeAsync(14_999)
    expect(state.settled).toBe(false)
    expect(call().init.signal?.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(state.settled).toBe(true)
    expect(call().init.signal?.aborted).toBe(true)
    expect(state.error).toBeInstanceOf(ApiError)
    expect(state.error).toMatchObject({
      status: 0,
      type: 'network_error',
      code: 'timeout',
      retryable: true,
    })
  })

  it('honours a custom timeout', async () => {
    vi.useFakeTimers()
    const { client } = clientWith(hangingFetch, { timeoutMs: 2000 })
    const state = watch(client.campaign('camp_abcdefghijklmnop'))
    await vi.advanceTimersByTimeAsync(1999)
    expect(state.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(state.error).toMatchObject({ status: 0, code: 'timeout', retryable: true })
  })

  it('times out even when the injected fetch ignores the abort signal', async () => {
    vi.useFakeTimers()
    const { client } = clientWith(() => new Promise<Response>(() => {}), { timeoutMs: 2000 })
    const state = watch(client.sendEvents([EVENT]))
    await vi.advanceTimersByTimeAsync(2000)
    expect(state.settled).toBe(true)
    expect(state.error).toBeInstanceOf(ApiError)
    expect(state.error).toMatchObject({ status: 0, code: 'timeout', retryable: true })
  })

  it('times out when the headers arrive but the body never finishes', async () => {
    vi.useFakeTimers()
    // Like the platform's fetch: aborting the signal errors the body stream.
    const stalledBody: FetchLike = async (_url, init) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"results": ['))
            init.signal?.addEventListener('abort', () =>
              controller.error(new DOMException('The operation was aborted.', 'AbortError')),
            )
          },
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      )
    const { client } = clientWith(stalledBody, { timeoutMs: 2000 })
    const state = watch(client.sendEvents([EVENT]))
    await vi.advanceTimersByTimeAsync(2000)
    expect(state.settled).toBe(true)
    expect(state.error).toBeInstanceOf(ApiError)
    expect(state.error).toMatchObject({ retryable: true })
  })

  it('leaves no timer running after an answer', async () => {
    vi.useFakeTimers()
    const { client } = clientWith(async () => json(LINK, 201))
    await client.createLink('camp_abcdefghijklmnop', 'user_42')
    expect(vi.getTimerCount()).toBe(0)
  })
})
