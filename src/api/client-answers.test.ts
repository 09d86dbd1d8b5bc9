// How the client reads answers it cannot take at face value: a Retry-After date from a service
// whose clock differs from the device's, and refusals that did not come from the service.
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../shared/errors.ts'
import { type ApiClientOptions, createApiClient, type FetchLike } from './client.ts'
import { createServiceClock } from './clock.ts'

const SERVICE_NOW = Date.UTC(2026, 0, 15, 12)
const YEAR = 365 * 24 * 3_600_000
const EVENT = {
  id: 'e_0123456789',
  type: 'signup',
  visitorId: 'v_0123456789',
  userId: 'u1',
} as const

function client(answer: () => Response, options: Partial<ApiClientOptions> = {}) {
  const fetch = vi.fn<FetchLike>(async () => answer())
  return createApiClient({
    apiBase: 'https://api.test',
    publicKey: 'pk_test_acme',
    fetch,
    ...options,
  })
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected a rejection')
}

const rateLimited = (headers: Record<string, string>) =>
  new Response(
    JSON.stringify({ error: { type: 'rate_limit_error', code: 'rate_limited', message: 'Wait.' } }),
    { status: 429, headers: { 'Content-Type': 'application/json', ...headers } },
  )

describe('a Retry-After date', () => {
  it.each([
    ['a year slow', -YEAR],
    ['a year fast', YEAR],
    ['right', 0],
  ])("is read against the answer's Date, with the device clock %s", async (_, skew) => {
    const api = client(
      () =>
        rateLimited({
          Date: new Date(SERVICE_NOW).toUTCString(),
          'Retry-After': new Date(SERVICE_NOW + 42_000).toUTCString(),
        }),
      { now: () => SERVICE_NOW + skew },
    )
    expect((await failure(api.sendEvents([EVENT]))).retryAfterMs).toBe(42_000)
  })

  it('is read against the device clock when the answer has no Date', async () => {
    const api = client(
      () => rateLimited({ 'Retry-After': new Date(SERVICE_NOW + 42_000).toUTCString() }),
      { now: () => SERVICE_NOW + 2_000 },
    )
    expect((await failure(api.sendEvents([EVENT]))).retryAfterMs).toBe(40_000)
  })
})

describe('the service clock', () => {
  it('learns from every answer, a success too', async () => {
    const device = SERVICE_NOW - 8 * 24 * 3_600_000
    const clock = createServiceClock(() => device)
    const api = client(
      () =>
        new Response(JSON.stringify({ results: [{ id: EVENT.id, status: 'accepted' }] }), {
          headers: {
            'Content-Type': 'application/json',
            Date: new Date(SERVICE_NOW).toUTCString(),
          },
        }),
      { now: () => device, clock },
    )
    await api.sendEvents([EVENT])
    expect(clock.known()).toBe(true)
    expect(clock.now()).toBe(SERVICE_NOW + 500)
  })
})

describe('refusals', () => {
  it.each([
    ['an HTML 403 from a firewall', 403, '<html>Access denied</html>', 'text/html'],
    [
      'a 404 from a CDN with JSON of another shape',
      404,
      '{"message":"Not Found"}',
      'application/json',
    ],
    ['a 400 with an empty body', 400, '', 'text/plain'],
    ['a 401 from a captive portal', 401, '<html>Sign in to the Wi-Fi</html>', 'text/html'],
  ])('%s is retryable: it says nothing about the events', async (_, status, body, type) => {
    const api = client(() => new Response(body, { status, headers: { 'Content-Type': type } }))
    const error = await failure(api.sendEvents([EVENT]))
    expect(error.status).toBe(status)
    expect(error.code).toBe(`http_${status}`)
    expect(error.retryable).toBe(true)
  })

  it("the service's own 403, in the contract's error shape, is final", async () => {
    const api = client(
      () =>
        new Response(
          JSON.stringify({
            error: { type: 'permission_error', code: 'secret_key_required', message: 'No.' },
          }),
          { status: 403, headers: { 'Content-Type': 'application/json' } },
        ),
    )
    const error = await failure(api.sendEvents([EVENT]))
    expect(error.code).toBe('secret_key_required')
    expect(error.retryable).toBe(false)
  })
})
