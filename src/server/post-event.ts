// Posts one event with a secret key and waits for the service's verdict on it, retrying with the
// widget's own policy (src/api/retry.ts) until the time allowed has passed.

import { backoffMs, retryAfterMs } from '../api/retry.ts'
import { parseErrorBody, parseEventsResponse } from '../api/wire.ts'
import { parse } from '../shared/parse.ts'
import type { RecordSignupFailure } from './errors.ts'
import { DEFAULT_TIMEOUT_MS, type FetchLike, type RecordOptions } from './options.ts'

/** The service's verdict on the event. */
export type Verdict =
  | { status: 'accepted' | 'duplicate' }
  | { status: 'rejected'; error: { code: string; message: string; param?: string | undefined } }

/** Why no verdict came, for the caller to turn into its own error. */
export interface PostFailure {
  reason: RecordSignupFailure
  message: string
  status?: number | undefined
  code?: string | undefined
  attempts: number
  retryAfterMs?: number | undefined
  cause?: unknown
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
  })
}

const TIMED_OUT = Symbol('timed out')

/**
 * Network errors, 5xx answers, 429s and a 200 without the event's result are retried (backoff
 * with full jitter; a 429 waits its Retry-After) while time is left; a wait that would pass the
 * deadline is not begun. Another 4xx refuses the whole request at once. `what` names the event
 * in messages ("the signup of …"), `request` the kind of request ("signup").
 */
export async function postEvent(args: {
  event: { id: string }
  url: string
  secretKey: string
  fetchImpl: FetchLike
  options: Pick<RecordOptions, 'timeoutMs' | 'now' | 'sleep' | 'random'>
  what: string
  request: string
  fail: (failure: PostFailure) => Error
}): Promise<{ verdict: Verdict; attempts: number }> {
  const { event, url, secretKey, fetchImpl, options, fail } = args
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? defaultSleep
  const random = options.random ?? Math.random
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const deadline = now() + timeoutMs
  const body = JSON.stringify({ events: [event] })

  let attempts = 0
  let last: {
    status?: number
    code?: string
    message: string
    retryAfterMs?: number
    cause?: unknown
  } = { message: 'no request was made' }
  /** `declined`: the wait that would have passed the deadline, when that is why it gave up. */
  const timeout = (declined?: number) => {
    const next = declined === undefined ? '' : `; the next try was due in ${declined} ms`
    return fail({
      reason: 'timeout',
      message: `[referral] ${args.what} got no verdict within ${timeoutMs} ms (${attempts} request${attempts === 1 ? '' : 's'}; last: ${last.message}${next}). Calling again later is safe: it counts once.`,
      status: last.status,
      code: last.code,
      attempts,
      retryAfterMs: last.retryAfterMs,
      cause: last.cause,
    })
  }

  /** Waits `ms` before the next try; the timeout instead when that goes past the deadline. */
  const pause = async (ms: number) => {
    if (now() + ms >= deadline) throw timeout(Math.ceil(ms))
    await sleep(ms, new AbortController().signal)
  }

  for (;;) {
    const remaining = deadline - now()
    if (remaining <= 0) throw timeout()
    attempts += 1
    const abort = new AbortController()
    const stopTimer = new AbortController()
    /** The answer with its body, both within the deadline: headers then a stalled body time out too. */
    const exchange = async () => {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
        body,
        signal: abort.signal,
      })
      return { response, json: (await response.json().catch(() => null)) as unknown }
    }
    let outcome: Awaited<ReturnType<typeof exchange>> | typeof TIMED_OUT
    try {
      outcome = await Promise.race([
        exchange(),
        sleep(remaining, stopTimer.signal).then((): typeof TIMED_OUT => TIMED_OUT),
      ])
    } catch (error) {
      stopTimer.abort()
      last = {
        message: `network error (${error instanceof Error ? error.name : 'unknown'})`,
        cause: error,
      }
      await pause(backoffMs(attempts - 1, random()))
      continue
    }
    stopTimer.abort()
    if (outcome === TIMED_OUT) {
      abort.abort()
      last = { message: 'the request was still waiting for an answer' }
      throw timeout()
    }
    const { response, json } = outcome

    if (response.status === 200) {
      const result = parse(parseEventsResponse, json)
      const verdict = result?.results.find((item) => item.id === event.id)
      if (verdict) {
        if (verdict.status !== 'rejected') return { verdict: { status: verdict.status }, attempts }
        const error = verdict.error ?? { code: 'unknown', message: 'The service gave no reason.' }
        return { verdict: { status: 'rejected', error }, attempts }
      }
      last = { status: 200, message: 'an answer without a result for the event' }
      await pause(backoffMs(attempts - 1, random()))
      continue
    }

    const error = parse(parseErrorBody, json)?.error
    last = {
      status: response.status,
      ...(error ? { code: error.code } : {}),
      message: `${response.status}${error ? ` ${error.code}` : ''}`,
    }
    if (response.status === 429) {
      const wait = retryAfterMs(response.headers.get('retry-after'), now())
      if (wait > 0) last.retryAfterMs = wait
      await pause(wait > 0 ? wait : backoffMs(attempts - 1, random()))
      continue
    }
    if (response.status >= 500) {
      await pause(backoffMs(attempts - 1, random()))
      continue
    }
    throw fail({
      reason: 'refused',
      message: `[referral] the service refused the ${args.request} request: ${response.status}${error ? ` ${error.code}: ${error.message}` : ''}`,
      status: response.status,
      code: error?.code,
      attempts,
    })
  }
}
