// Records a signup from the site's backend, where ad blockers and closed tabs cannot lose it.
// One event per user: its id is derived from the user id, so the service counts a user once
// however often this is called. Retries use the widget's own policy (src/api/retry.ts).

import { backoffMs, retryAfterMs } from '../api/retry.ts'
import {
  KEY_PATTERN,
  parseErrorBody,
  parseEventsResponse,
  REFERRER_ID_PATTERN,
} from '../api/wire.ts'
import { parse } from '../shared/parse.ts'
import { RecordSignupError, refuseInPage, ServerConfigError } from './errors.ts'
import { signupEventId, userVisitorId } from './ids.ts'
import { type Attribution, parseAttribution } from './read-attribution.ts'

export const DEFAULT_TIMEOUT_MS = 10_000
/** A request handler should not wait longer than this for a signup to be counted. */
const MAX_TIMEOUT_MS = 5 * 60 * 1000

/** What recordSignup needs of fetch: a URL string and an init; a Response back. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

export interface RecordSignupOptions {
  /** A secret key (`sk_test_…` or `sk_live_…`) of the organization and mode the widget uses. */
  secretKey: string
  /** The service's base URL, absolute (`https://referrals.example.com`, or `…/referral`). */
  apiBase: string
  /** The new user's id in your system (1-128 of `A-Z a-z 0-9 _ . : @ -`). */
  userId: string
  /** What the browser captured: readAttribution() or parseAttribution(); null or absent: none. */
  attribution?: Attribution | null | undefined
  /** Default globalThis.fetch; any function of this shape (a mock, a proxying fetch) will do. */
  fetch?: FetchLike
  /** The longest the whole call may take, retries and waits included. Default 10,000 ms. */
  timeoutMs?: number
  /** The clock, in milliseconds. Default Date.now. */
  now?: () => number
  /** Waits `ms`; resolves early when `signal` aborts. Default setTimeout. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  /** Uniform in [0, 1), for the backoff's jitter. Default Math.random. */
  random?: () => number
}

export type SignupResult =
  | { status: 'accepted' | 'duplicate'; eventId: string }
  | { status: 'rejected'; eventId: string; error: { code: string; message: string } }

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

/** Every check that can fail before a request: nothing is sent unless all pass. */
function checkOptions(options: RecordSignupOptions) {
  refuseInPage('recordSignup', 'In the page, use track("signup").')
  if (typeof options !== 'object' || options === null) {
    throw new ServerConfigError('options', '[referral] recordSignup needs an options object.')
  }
  const { secretKey, apiBase, userId, attribution, timeoutMs } = options
  if (typeof secretKey !== 'string' || !KEY_PATTERN.test(secretKey)) {
    throw new ServerConfigError(
      'secretKey',
      '[referral] secretKey must be a secret key such as sk_test_… or sk_live_… (4-64 letters or digits after the prefix).',
    )
  }
  if (secretKey.startsWith('pk_')) {
    throw new ServerConfigError(
      'secretKey',
      '[referral] secretKey is a public key (pk_…): recordSignup needs the secret key (sk_…) of the same organization and mode.',
    )
  }
  let base: URL
  try {
    base = new URL(apiBase)
  } catch {
    throw new ServerConfigError(
      'apiBase',
      `[referral] apiBase must be an absolute http(s) URL, not ${quote(apiBase)}: on a server there is no page to resolve a relative one against.`,
    )
  }
  if (!/^https?:$/.test(base.protocol) || base.search || base.hash || base.username) {
    throw new ServerConfigError(
      'apiBase',
      `[referral] apiBase must be an http(s) URL without credentials, query or fragment, not ${quote(apiBase)}.`,
    )
  }
  if (typeof userId !== 'string' || !REFERRER_ID_PATTERN.test(userId)) {
    throw new ServerConfigError(
      'userId',
      `[referral] userId must be 1-128 of A-Z a-z 0-9 _ . : @ -, not ${quote(userId)}.`,
    )
  }
  if (attribution !== undefined && attribution !== null && parseAttribution(attribution) === null) {
    throw new ServerConfigError(
      'attribution',
      '[referral] attribution must be { code, visitorId, capturedAt } as readAttribution() or parseAttribution() return it, or null.',
    )
  }
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs > MAX_TIMEOUT_MS)
  ) {
    throw new ServerConfigError(
      'timeoutMs',
      `[referral] timeoutMs must be a number of milliseconds above 0 and at most ${MAX_TIMEOUT_MS}, not ${quote(timeoutMs)}.`,
    )
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new ServerConfigError('fetch', '[referral] fetch must be a function.')
  }
  const fetchImpl: FetchLike | undefined = options.fetch ?? globalThis.fetch
  if (typeof fetchImpl !== 'function') {
    throw new ServerConfigError('fetch', '[referral] no fetch here: pass one as the fetch option.')
  }
  const url = `${base.href.replace(/\/+$/, '')}/v1/events`
  return { secretKey, userId, attribution: attribution ?? null, url, fetchImpl }
}

function quote(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value)
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}

const TIMED_OUT = Symbol('timed out')

/**
 * Posts one signup event for `userId` with a secret key and resolves to the service's verdict
 * on it. Network errors, 5xx answers and 429s are retried (backoff with full jitter; 429 waits
 * its Retry-After) until `timeoutMs` has passed. Rejects with RecordSignupError only when no
 * verdict came in time (`timeout`) or the whole request was refused (`refused`, e.g. a 401);
 * throws ServerConfigError before any request for a bad option or inside a browser page.
 */
export async function recordSignup(options: RecordSignupOptions): Promise<SignupResult> {
  const { secretKey, userId, attribution, url, fetchImpl } = checkOptions(options)
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? defaultSleep
  const random = options.random ?? Math.random
  const deadline = now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS)

  const eventId = await signupEventId(userId)
  const event = {
    id: eventId,
    type: 'signup',
    ...(attribution ? { code: attribution.code } : {}),
    visitorId: attribution?.visitorId ?? (await userVisitorId(userId)),
    userId,
    occurredAt: new Date(now()).toISOString(),
  }
  const body = JSON.stringify({ events: [event] })

  let attempts = 0
  let last: { status?: number; code?: string; message: string; cause?: unknown } = {
    message: 'no request was made',
  }
  const timeout = () =>
    new RecordSignupError({
      reason: 'timeout',
      message: `[referral] the signup of ${quote(userId)} got no answer within ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms (${attempts} request${attempts === 1 ? '' : 's'}; last: ${last.message}). Calling again later is safe: it counts once.`,
      status: last.status,
      code: last.code,
      attempts,
      eventId,
      cause: last.cause,
    })

  /** Waits `ms` unless that goes past the deadline; false when there is no time left for it. */
  const pause = async (ms: number) => {
    if (now() + ms >= deadline) return false
    await sleep(ms, new AbortController().signal)
    return true
  }

  for (;;) {
    const remaining = deadline - now()
    if (remaining <= 0) throw timeout()
    attempts += 1
    const abort = new AbortController()
    const stopTimer = new AbortController()
    let outcome: Response | typeof TIMED_OUT
    try {
      outcome = await Promise.race([
        fetchImpl(url, {
          method: 'POST',
          headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
          body,
          signal: abort.signal,
        }),
        sleep(remaining, stopTimer.signal).then((): typeof TIMED_OUT => TIMED_OUT),
      ])
    } catch (error) {
      stopTimer.abort()
      last = {
        message: `network error (${error instanceof Error ? error.name : 'unknown'})`,
        cause: error,
      }
      if (!(await pause(backoffMs(attempts - 1, random())))) throw timeout()
      continue
    }
    stopTimer.abort()
    if (outcome === TIMED_OUT) {
      abort.abort()
      last = { message: 'the request was still waiting for an answer' }
      throw timeout()
    }
    const response = outcome

    if (response.status === 200) {
      const result = parse(parseEventsResponse, await response.json().catch(() => null))
      const verdict = result?.results.find((item) => item.id === eventId)
      if (verdict) {
        if (verdict.status === 'rejected') {
          return {
            status: 'rejected',
            eventId,
            error: verdict.error ?? { code: 'unknown', message: 'The service gave no reason.' },
          }
        }
        return { status: verdict.status, eventId }
      }
      last = { status: 200, message: 'an answer without a result for the event' }
      if (!(await pause(backoffMs(attempts - 1, random())))) throw timeout()
      continue
    }

    const error = parse(parseErrorBody, await response.json().catch(() => null))?.error
    last = {
      status: response.status,
      ...(error ? { code: error.code } : {}),
      message: `${response.status}${error ? ` ${error.code}` : ''}`,
    }
    if (response.status === 429) {
      const wait = retryAfterMs(response.headers.get('retry-after'), now())
      if (!(await pause(wait > 0 ? wait : backoffMs(attempts - 1, random())))) throw timeout()
      continue
    }
    if (response.status >= 500) {
      if (!(await pause(backoffMs(attempts - 1, random())))) throw timeout()
      continue
    }
    throw new RecordSignupError({
      reason: 'refused',
      message: `[referral] the service refused the signup request: ${response.status}${error ? ` ${error.code}: ${error.message}` : ''}`,
      status: response.status,
      code: error?.code,
      attempts,
      eventId,
    })
  }
}
