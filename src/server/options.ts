// The options the record functions (recordSignup, recordPurchase, recordRefund) share, and the
// checks made on them before any request: a call that cannot be right fails at once, and nothing
// is sent.

import { KEY_PATTERN, REFERRER_ID_PATTERN } from '../api/wire.ts'
import { refuseInPage, ServerConfigError } from './errors.ts'
import { type Attribution, parseAttribution } from './read-attribution.ts'

export const DEFAULT_TIMEOUT_MS = 10_000
/** A request handler should not wait longer than this for an event to be counted. */
const MAX_TIMEOUT_MS = 5 * 60 * 1000

/** What the server entry needs of fetch: a URL string and an init; a Response back. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

/** What every call to the service takes: where it is, the key, and the ways to reach it. */
export interface ServiceOptions {
  /** A secret key (`sk_test_…` or `sk_live_…`) of the organization and mode the widget uses. */
  secretKey: string
  /** The service's base URL, absolute (`https://referrals.example.com`, or `…/referral`). */
  apiBase: string
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

export interface RecordOptions extends ServiceOptions {
  /** The user's id in your system (1-128 of `A-Z a-z 0-9 _ . : @ -`). */
  userId: string
  /** What the browser captured: readAttribution() or parseAttribution(); null or absent: none. */
  attribution?: Attribution | null | undefined
}

export function quote(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value)
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}

/**
 * The checks of what every call to the service takes; `name` is the function called, `instead`
 * what a page should do. Throws ServerConfigError naming the option at fault.
 */
export function checkServiceOptions(name: string, options: ServiceOptions, instead: string) {
  refuseInPage(name, instead)
  if (typeof options !== 'object' || options === null) {
    throw new ServerConfigError('options', `[referral] ${name} needs an options object.`)
  }
  const { secretKey, apiBase, timeoutMs } = options
  if (typeof secretKey !== 'string' || !KEY_PATTERN.test(secretKey)) {
    // The usual slips first: an unset environment variable, a line break copied with the key.
    const slip =
      secretKey === '' || secretKey === undefined
        ? ' It is empty: is the environment variable that holds it set?'
        : typeof secretKey === 'string' && KEY_PATTERN.test(secretKey.trim())
          ? ' It has spaces or a line break around it.'
          : ''
    throw new ServerConfigError(
      'secretKey',
      `[referral] secretKey must be a secret key such as sk_test_… or sk_live_… (4-64 letters or digits after the prefix).${slip}`,
    )
  }
  if (secretKey.startsWith('pk_')) {
    throw new ServerConfigError(
      'secretKey',
      `[referral] secretKey is a public key (pk_…): ${name} needs the secret key (sk_…) of the same organization and mode.`,
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
  if (!/^https?:$/.test(base.protocol)) {
    throw new ServerConfigError(
      'apiBase',
      `[referral] apiBase must start with https:// (or http://), not ${quote(apiBase)}.`,
    )
  }
  if (base.search || base.hash || base.username || base.password) {
    throw new ServerConfigError(
      'apiBase',
      `[referral] apiBase must be an http(s) URL without credentials, query or fragment, not ${quote(apiBase)}.`,
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
  return { secretKey, url, fetchImpl }
}

/** Every check of the options recordSignup and recordPurchase share; see checkServiceOptions. */
export function checkRecordOptions(name: string, options: RecordOptions, instead: string) {
  const service = checkServiceOptions(name, options, instead)
  const { userId, attribution } = options
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
  return { ...service, userId, attribution: attribution ?? null }
}
