import { afterEach, describe, expect, it, vi } from 'vitest'
import type { TrackedEvent } from '../../demo/service/schemas.ts'
import { ApiError } from '../shared/errors.ts'
import { type ApiClientOptions, createApiClient, type FetchLike } from './client.ts'
import { referrerCalls } from './referrer-calls.ts'

const BASE = 'https://referrals.example'
const KEY = 'pk_test_acme'
const CREATED = '2025-01-15T12:00:00.000Z'

const LINK = {
  id: 'link_abcdefghijklmnop',
  code: 'ABCD1234',
  campaignId: 'camp_abcdefghijklmnop',
  referrerId: 'user_42',
  createdAt: CREATED,
}

const CAMPAIGN = {
  id: 'camp_abcdefghijklmnop',
  name: 'Give $10, get $10',
  status: 'active',
  rewardTrigger: 'signup',
  referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
  referredReward: { type: 'credit', amount: 10, currency: 'USD' },
  attributionWindow: '30d',
  createdAt: CREATED,
}

const EVENT: TrackedEvent = {
  id: 'evt_0123456789',
  type: 'click',
  code: 'ABCD1234',
  visitorId: 'v_0123456789',
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  })
}

function errorBody(type: string, code: string, message: string, param?: string) {
  return { error: { type, code, message, ...(param === undefined ? {} : { param }) } }
}

/** The client with the referrer's calls on it, as the referrer's part uses them. */
function withCalls(api: ReturnType<typeof createApiClient>) {
  const calls = referrerCalls(api)
  return {
    ...api,
    campaign: (id: string) => calls.campaign(id),
    newestActiveCampaign: () => calls.campaign(undefined),
    createLink: calls.createLink,
  }
}

/** A client whose fetch answers with `answer` and records every call. */
function clientWith(answer: FetchLike, options: Partial<ApiClientOptions> = {}) {
  const fetch = vi.fn<FetchLike>(answer)
  const client = withCalls(createApiClient({ apiBase: BASE, publicKey: KEY, fetch, ...options }))
  const call = (index = 0) => {
    const args = fetch.mock.calls[index]
    if (!args) throw new Error(`fetch was not called ${index + 1} time(s)`)
    const [url, init] = args
    return { url, init, headers: new Headers(init.headers) }
  }
  return { client, fetch, call }
}

async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw new Error(`expected an ApiError, got ${String(error)}`)
  }
  throw new Error('expected an ApiError, the call succeeded')
}

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

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('requests', () => {
  it('POSTs a link request as JSON with the public key as a bearer token', async () => {
    const { client, fetch, call } = clientWith(async () => json(LINK, 201))
    await expect(client.createLink('camp_abcdefghijklmnop', 'user_42')).resolves.toEqual(LINK)
    expect(fetch).toHaveBeenCalledTimes(1)
    const { url, init, headers } = call()
    expect(url).toBe(`${BASE}/v1/links`)
    expect(init.method).toBe('POST')
    expect(headers.get('Authorization')).toBe('Bearer pk_test_acme')
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(typeof init.body).toBe('string')
    expect(JSON.parse(String(init.body))).toEqual({
      campaignId: 'camp_abcdefghijklmnop',
      referrerId: 'user_42',
    })
  })

  it('sends events in an {events: [...]} envelope and returns the per-event results', async () => {
    const results = { results: [{ id: EVENT.id, status: 'accepted' }] }
    const { client, call } = clientWith(async () => json(results))
    await expect(client.sendEvents([EVENT])).resolves.toEqual(results)
    const { url, init, headers } = call()
    expect(url).toBe(`${BASE}/v1/events`)
    expect(init.method).toBe('POST')
    expect(headers.get('Authorization')).toBe(`Bearer ${KEY}`)
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(JSON.parse(String(init.body))).toEqual({ events: [EVENT] })
  })

  it('GETs a campaign with the bearer token, no body and no cookies', async () => {
    const { client, call } = clientWith(async () => json(CAMPAIGN))
    await expect(client.campaign('camp_abcdefghijklmnop')).resolves.toEqual(CAMPAIGN)
    const { url, init, headers } = call()
    expect(url).toBe(`${BASE}/v1/campaigns/camp_abcdefghijklmnop`)
    expect(init.method).toBe('GET')
    expect(init.body).toBeUndefined()
    expect(init.credentials).toBe('omit')
    expect(headers.get('Authorization')).toBe(`Bearer ${KEY}`)
  })

  it('escapes ids in the path', async () => {
    const { client, call } = clientWith(async () => json(CAMPAIGN))
    await client.campaign('camp_../../v1/x?y')
    expect(call().url).toBe(`${BASE}/v1/campaigns/camp_..%2F..%2Fv1%2Fx%3Fy`)
  })

  it('joins an API base given with trailing slashes without doubling them', async () => {
    const { client, call } = clientWith(async () => json(LINK, 201), {
      apiBase: `${BASE}/api//`,
    })
    await client.createLink('camp_abcdefghijklmnop', 'user_42')
    expect(call().url).toBe(`${BASE}/api/v1/links`)
  })

  it('asks for the newest active campaign and returns it, or null when there is none', async () => {
    const found = clientWith(async () => json({ data: [CAMPAIGN], total: 3, hasMore: true }))
    await expect(found.client.newestActiveCampaign()).resolves.toEqual(CAMPAIGN)
    expect(found.call().url).toBe(`${BASE}/v1/campaigns?status=active&limit=1`)
    const none = clientWith(async () => json({ data: [], total: 0, hasMore: false }))
    await expect(none.client.newestActiveCampaign()).resolves.toBeNull()
  })

  it('uses the global fetch at call time when none is injected', async () => {
    const client = withCalls(createApiClient({ apiBase: BASE, publicKey: KEY }))
    const fetch = vi.fn<FetchLike>(async () => json(LINK, 201))
    vi.stubGlobal('fetch', fetch)
    await expect(client.createLink('camp_abcdefghijklmnop', 'user_42')).resolves.toEqual(LINK)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('composes the beacon form (key in the body, no request made)', () => {
    const { client, fetch } = clientWith(async () => json({}))
    const beacon = client.beacon([EVENT])
    expect(beacon.url).toBe(`${BASE}/v1/events`)
    expect(JSON.parse(beacon.body)).toEqual({ key: KEY, events: [EVENT] })
    expect(fetch).not.toHaveBeenCalled()
  })
})

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

describe('error answers', () => {
  it('reads a 429 with Retry-After in seconds', async () => {
    const { client } = clientWith(async () =>
      json(errorBody('rate_limit_error', 'rate_limited', 'Too many requests.'), 429, {
        'Retry-After': '7',
      }),
    )
    const error = await apiErrorOf(client.sendEvents([EVENT]))
    expect(error.status).toBe(429)
    expect(error.type).toBe('rate_limit_error')
    expect(error.code).toBe('rate_limited')
    expect(error.message).toBe('Too many requests.')
    expect(error.retryAfterMs).toBe(7000)
    expect(error.retryable).toBe(true)
  })

  it('reads a 429 with Retry-After as an HTTP-date, against the injected clock', async () => {
    const now = Date.UTC(2025, 0, 15, 12, 0, 0)
    const { client } = clientWith(
      async () =>
        json(errorBody('rate_limit_error', 'rate_limited', 'Slow down.'), 429, {
          'Retry-After': 'Wed, 15 Jan 2025 12:00:42 GMT',
        }),
      { now: () => now },
    )
    const error = await apiErrorOf(client.sendEvents([EVENT]))
    expect(error.retryAfterMs).toBe(42_000)
  })

  it('gives a 429 without a usable Retry-After no wait, still retryable', async () => {
    const { client } = clientWith(async () =>
      json(errorBody('rate_limit_error', 'rate_limited', 'Slow down.'), 429, {
        'Retry-After': 'later',
      }),
    )
    const error = await apiErrorOf(client.sendEvents([EVENT]))
    expect(error.retryAfterMs).toBe(0)
    expect(error.retryable).toBe(true)
  })

  it('carries type, code, param and the message of a 400', async () => {
    const { client } = clientWith(async () =>
      json(
        errorBody(
          'invalid_request_error',
          'parameter_invalid',
          'referrerId must be 1-128 characters.',
          'referrerId',
        ),
        400,
      ),
    )
    const error = await apiErrorOf(client.createLink('camp_abcdefghijklmnop', 'bad id'))
    expect(error).toBeInstanceOf(Error)
    expect(error.status).toBe(400)
    expect(error.type).toBe('invalid_request_error')
    expect(error.code).toBe('parameter_invalid')
    expect(error.param).toBe('referrerId')
    expect(error.message).toBe('referrerId must be 1-128 characters.')
    expect(error.retryAfterMs).toBe(0)
    expect(error.retryable).toBe(false)
  })

  it('leaves param undefined when the service names none', async () => {
    const { client } = clientWith(async () =>
      json(errorBody('authentication_error', 'invalid_api_key', 'Unknown key.'), 401),
    )
    const error = await apiErrorOf(client.campaign('camp_abcdefghijklmnop'))
    expect(error.param).toBeUndefined()
    expect(error.code).toBe('invalid_api_key')
  })

  it.each([
    [400, 'invalid_request_error', 'parameter_missing', false],
    [401, 'authentication_error', 'expired_api_key', false],
    [403, 'permission_error', 'secret_key_required', false],
    [404, 'not_found_error', 'resource_missing', false],
    [409, 'invalid_request_error', 'campaign_not_active', false],
    [413, 'invalid_request_error', 'body_too_large', false],
    [415, 'invalid_request_error', 'unsupported_media_type', false],
    [408, 'api_error', 'request_timeout', true],
    [429, 'rate_limit_error', 'rate_limited', true],
    [500, 'api_error', 'internal_error', true],
    [503, 'api_error', 'unavailable', true],
  ])('a %i is retryable: %s/%s -> %s', async (status, type, code, retryable) => {
    const { client } = clientWith(async () => json(errorBody(type, code, 'Something.'), status))
    const error = await apiErrorOf(client.sendEvents([EVENT]))
    expect(error.status).toBe(status)
    expect(error.type).toBe(type)
    expect(error.code).toBe(code)
    expect(error.retryable).toBe(retryable)
  })

  it('gives a clear ApiError for a non-JSON error body (an HTML gateway page)', async () => {
    const { client } = clientWith(
      async () =>
        new Response('<html><body>502 Bad Gateway</body></html>', {
          status: 502,
          headers: { 'Content-Type': 'text/html' },
        }),
    )
    const error = await apiErrorOf(client.sendEvents([EVENT]))
    expect(error.status).toBe(502)
    expect(error.type).toBe('api_error')
    expect(error.code).toBe('http_502')
    expect(error.message).toBe('The referral service answered 502.')
    expect(error.message).not.toContain('<html>')
    expect(error.param).toBeUndefined()
    expect(error.retryable).toBe(true)
  })

  it('a 4xx with an empty body is not the service refusing: a retryable ApiError', async () => {
    // Something in front of the service (a proxy, a firewall) answered, not the service itself.
    const { client } = clientWith(async () => new Response(null, { status: 404 }))
    const error = await apiErrorOf(client.campaign('camp_abcdefghijklmnop'))
    expect(error.status).toBe(404)
    expect(error.code).toBe('http_404')
    expect(error.retryable).toBe(true)
  })

  it('does not trust an error body of the wrong shape', async () => {
    const { client } = clientWith(async () =>
      json({ error: 'boom', message: 42, param: { evil: true } }, 400),
    )
    const error = await apiErrorOf(client.sendEvents([EVENT]))
    expect(error.status).toBe(400)
    expect(error.type).toBe('api_error')
    expect(error.code).toBe('http_400')
    expect(error.param).toBeUndefined()
    expect(error.message).toBe('The referral service answered 400.')
    expect(error.retryable).toBe(true)
  })
})

describe('unexpected shapes of a 2xx', () => {
  it('turns a 200 of the wrong shape into a retryable invalid_response', async () => {
    const { client } = clientWith(async () => json({ ok: true }))
    const error = await apiErrorOf(client.sendEvents([EVENT]))
    expect(error.status).toBe(200)
    expect(error.type).toBe('api_error')
    expect(error.code).toBe('invalid_response')
    expect(error.retryable).toBe(true)
    expect(error.message).toContain('POST /v1/events')
  })

  it('turns a 200 that is not JSON into invalid_response', async () => {
    const { client } = clientWith(
      async () => new Response('<!doctype html><title>Shop</title>', { status: 200 }),
    )
    const error = await apiErrorOf(client.campaign('camp_abcdefghijklmnop'))
    expect(error.code).toBe('invalid_response')
    expect(error.retryable).toBe(true)
  })

  it.each([
    ['null', null],
    ['an array', [LINK]],
    ['a code with markup', { ...LINK, code: '<img src=x>' }],
    ['a missing createdAt', { ...LINK, createdAt: undefined }],
    ['a link id of the wrong shape', { ...LINK, id: 'lnk_1' }],
  ])('refuses a link answer with %s', async (_, body) => {
    const { client } = clientWith(async () => json(body, 201))
    const error = await apiErrorOf(client.createLink('camp_abcdefghijklmnop', 'user_42'))
    expect(error.code).toBe('invalid_response')
    // Checked after the exchange (the answer may have been sent ahead by the tracking file):
    // a success whose body is not a link, retried like any unreadable answer.
    expect(error.retryable).toBe(true)
    expect(error.message).toBe(
      "The referral service's answer to POST /v1/links has an unexpected shape.",
    )
  })

  it('refuses a campaign whose reward amount is not a number', async () => {
    const { client } = clientWith(async () =>
      json({ ...CAMPAIGN, referrerReward: { type: 'credit', amount: '10', currency: 'USD' } }),
    )
    const error = await apiErrorOf(client.campaign('camp_abcdefghijklmnop'))
    expect(error.code).toBe('invalid_response')
  })

  it('refuses event results with an unknown status', async () => {
    const { client } = clientWith(async () =>
      json({ results: [{ id: EVENT.id, status: 'maybe' }] }),
    )
    const error = await apiErrorOf(client.sendEvents([EVENT]))
    expect(error.code).toBe('invalid_response')
  })
})
