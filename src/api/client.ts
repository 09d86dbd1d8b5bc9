import { ApiError } from '../shared/errors.ts'
import { toJson } from '../shared/json.ts'
import { own } from '../shared/own.ts'
import { type Parser, parse } from '../shared/parse.ts'
import { httpDateMs, type ServiceClock } from './clock.ts'
import { retryAfterMs } from './retry.ts'
import { parseErrorBody, parseEventsResponse, type TrackedEvent } from './wire.ts'

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

export interface ApiClientOptions {
  apiBase: string
  publicKey: string
  /** Looked up at call time when not given, so test doubles installed later still apply. */
  fetch?: FetchLike | undefined
  now?: () => number
  /** Learns the service's time from every answer's `Date` header. */
  clock?: ServiceClock | undefined
  /** A request that takes longer is aborted and counts as a network error. */
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 15_000

/** Any answer, as it came: for requests whose answer is checked later, by who reads it. */
export const anything: Parser<unknown> = (value) => value

/**
 * A successful answer in the shape `parser` expects, or a retryable ApiError saying which
 * request's answer had an unexpected shape.
 */
export function expectShape<T>(parser: Parser<T>, payload: unknown, what: string, status = 200): T {
  const parsed = parse(parser, payload)
  if (parsed === null) {
    throw new ApiError({
      status,
      type: 'api_error',
      code: 'invalid_response',
      message: `The referral service's answer to ${what} has an unexpected shape.`,
      retryable: true,
    })
  }
  return parsed
}

/* @__NO_SIDE_EFFECTS__ */
export function createApiClient(options: ApiClientOptions) {
  const base = options.apiBase.replace(/\/+$/, '')
  const now = options.now ?? (() => Date.now())
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init))

  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    parser: Parser<T>,
    body?: unknown,
    extraHeaders?: Record<string, string>,
  ): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${options.publicKey}`,
      ...extraHeaders,
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const controller = new AbortController()
    let timer: unknown
    // The whole exchange, body included, races the clock: a host fetch that ignores the abort
    // signal, or a body that never ends, still times out.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort()
        reject(new Error('timeout'))
      }, timeoutMs)
    })
    const sentAt = now()
    const exchange = async () => {
      // A host fetch may throw synchronously; inside the async function that is a rejection.
      const response = await doFetch(
        `${base}${path}`,
        own({
          method,
          headers,
          signal: controller.signal,
          credentials: 'omit',
          ...(body === undefined ? {} : { body: toJson(body), keepalive: true }),
        }),
      )
      let payload: unknown
      try {
        payload = await response.json()
      } catch (cause) {
        if (controller.signal.aborted) throw cause
        payload = undefined
      }
      return { response, payload }
    }
    let response: Response
    let payload: unknown
    try {
      ;({ response, payload } = await Promise.race([exchange(), timeout]))
    } catch (cause) {
      throw new ApiError({
        status: 0,
        type: 'network_error',
        code: controller.signal.aborted ? 'timeout' : 'network_error',
        message: controller.signal.aborted
          ? `The referral service did not answer within ${timeoutMs / 1000} s.`
          : 'The referral service could not be reached.',
        cause,
      })
    } finally {
      clearTimeout(timer as ReturnType<typeof setTimeout>)
    }
    const date = response.headers.get('Date')
    options.clock?.observe(date, sentAt, now())

    if (!response.ok) {
      const error = parse(parseErrorBody, payload)?.error
      // A Retry-After date is read against the answer's own Date, not the device clock.
      const serviceNow = httpDateMs(date)
      throw new ApiError({
        status: response.status,
        type: error?.type ?? 'api_error',
        code: error?.code ?? `http_${response.status}`,
        message: error?.message ?? `The referral service answered ${response.status}.`,
        param: error?.param,
        retryAfterMs:
          response.status === 429
            ? retryAfterMs(
                response.headers.get('Retry-After'),
                Number.isFinite(serviceNow) ? serviceNow : now(),
              )
            : 0,
        // Only the service's own refusals, in the contract's error shape, are final: an HTML 403
        // from a firewall, a CDN or a captive portal in front of it says nothing about the events.
        ...(error ? {} : { retryable: true }),
      })
    }

    return expectShape(parser, payload, `${method} ${path}`, response.status)
  }

  return {
    /**
     * One request, its answer checked by `parser` (`anything`: the answer as it came, for the
     * referrer's calls, which the later part checks: src/api/referrer-calls.ts).
     */
    request,
    sendEvents: (events: readonly TrackedEvent[]) =>
      request('POST', '/v1/events', parseEventsResponse, { events }),
    /** The URL and text/plain body of the beacon form, for page-hide delivery. */
    beacon: (events: readonly TrackedEvent[]) => ({
      url: `${base}/v1/events`,
      body: toJson({ key: options.publicKey, events }),
    }),
  }
}

export type ApiClient = ReturnType<typeof createApiClient>
