// Retry policy as pure functions, so tests can assert exact delays.
import { httpDateMs } from './clock.ts'

/** The longest pause a Retry-After can impose; anything longer is taken as this. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000
export const BACKOFF_BASE_MS = 1000
export const BACKOFF_CAP_MS = 60 * 1000

/**
 * Milliseconds to wait from a Retry-After header: delay-seconds or an HTTP-date, the date read
 * against `now`, which should be the answer's own `Date` where it has one (a device clock a year
 * off must not turn a short pause into none, or into the longest).
 * Missing, garbage, negative or past values mean no wait; absurdly long ones are capped.
 */
export function retryAfterMs(header: string | null | undefined, now: number): number {
  const value = header?.trim()
  if (!value) return 0
  let ms: number
  if (/^\d+$/.test(value)) {
    ms = Number(value) * 1000
  } else {
    ms = httpDateMs(value) - now
  }
  if (!Number.isFinite(ms) || ms <= 0) return 0
  return Math.min(ms, MAX_RETRY_AFTER_MS)
}

/**
 * Exponential backoff with full jitter: a uniformly random wait between 0 and
 * min(cap, base * 2^attempt). `random` returns a number in [0, 1).
 */
export function backoffMs(attempt: number, random: number): number {
  // NaN (from an injected random source, say) counts as 0, never as a NaN delay.
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt || 0))
  const jitter = Math.min(Math.max(random || 0, 0), 1)
  return Math.floor(ceiling * jitter)
}

export const REFUSAL_BASE_MS = 2 * 60 * 1000
export const REFUSAL_CAP_MS = 60 * 60 * 1000

/**
 * The wait after the service refused the key or the address (its own 401, 403 or 404): minutes,
 * doubling to an hour, between half and all of min(cap, base * 2^(refusals - 1)), so tabs and
 * pages that met the same refusal do not come back together. `refusals` counts from 1.
 */
export function refusalBackoffMs(refusals: number, random: number): number {
  const ceiling = Math.min(REFUSAL_CAP_MS, REFUSAL_BASE_MS * 2 ** Math.max(0, (refusals || 1) - 1))
  const jitter = Math.min(Math.max(random || 0, 0), 1)
  return Math.floor(ceiling * (0.5 + jitter / 2))
}
