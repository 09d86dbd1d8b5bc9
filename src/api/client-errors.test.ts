// The API client over the service's refusals and answers of an unexpected shape: what each
// error answer becomes as an ApiError, and a 2xx it cannot read (shared fixtures:
// test/support/api-client.ts).
import { describe, expect, it } from 'vitest'
import {
  apiErrorOf,
  CAMPAIGN,
  clientWith,
  EVENT,
  json,
  LINK,
  restoreTimersAndGlobals,
} from '../../test/support/api-client.ts'

function errorBody(type: string, code: string, message: string, param?: string) {
  return { error: { type, code, message, ...(param === undefined ? {} : { param }) } }
}

restoreTimersAndGlobals()

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
