// Rate limits of public keys, per client IP (seed "Authentication", "Errors", "Limits";
// CONTRACT.md "Rate limits"): the window, its headers, what counts and what does not.

import { describe, expect, it } from 'vitest'
import { type Answer, DEMO_CAMPAIGNS, DEMO_KEYS, MINUTE, SECOND, setup } from './helpers.ts'
import {
  ACME,
  ask,
  askTimes,
  CLIENT,
  expectLimited,
  header,
  OTHER_CLIENT,
  pkTest,
  retryAfter,
} from './rate-limit-support.ts'

describe('public keys: per client IP', () => {
  it('refuses the 4th request within 60 s with 429 rate_limit_error/rate_limited', async () => {
    const { call } = setup({ pkRateLimit: 3 })
    const answers = await askTimes(call, 3)
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expectLimited(await ask(call))
  })

  it('says in Retry-After how many whole seconds remain until the window resets', async () => {
    const { call, clock } = setup({ pkRateLimit: 3 })
    await askTimes(call, 3)

    clock.advance(45 * SECOND)
    const refused = await ask(call)
    expectLimited(refused)
    expect(retryAfter(refused)).toBe(15)

    clock.advance(14 * SECOND + 500) // 0.5 s left: still at least 1
    const last = await ask(call)
    expectLimited(last)
    expect(retryAfter(last)).toBe(1)
  })

  it('is allowed again exactly when Retry-After said', async () => {
    const { call, clock } = setup({ pkRateLimit: 2 })
    await askTimes(call, 2)
    clock.advance(20 * SECOND)
    const refused = await ask(call)
    expectLimited(refused)

    clock.advance(retryAfter(refused) * SECOND - 1)
    expectLimited(await ask(call))
    clock.advance(1)
    expect((await ask(call)).status).toBe(200)
  })

  it('carries RateLimit-Limit, -Remaining and -Reset on every counted answer', async () => {
    const { call, clock } = setup({ pkRateLimit: 4 })
    const ok = await ask(call)
    expect(ok.status).toBe(200)
    expect([header(ok, 'RateLimit-Limit'), header(ok, 'RateLimit-Remaining')]).toEqual(['4', '3'])
    expect(header(ok, 'RateLimit-Reset')).toBe('60')

    clock.advance(20 * SECOND)
    const created = await call('POST', '/v1/links', {
      key: pkTest,
      ip: CLIENT,
      body: { campaignId: ACME, referrerId: 'alice' },
    })
    expect(created.status).toBe(201)
    expect(header(created, 'RateLimit-Limit')).toBe('4')
    expect(header(created, 'RateLimit-Remaining')).toBe('2')
    expect(header(created, 'RateLimit-Reset')).toBe('40')

    const missing = await call('GET', '/v1/links/ZZZZZZZZZZ', { key: pkTest, ip: CLIENT })
    expect(missing.status).toBe(404)
    expect(header(missing, 'RateLimit-Remaining')).toBe('1')
    expect(header(missing, 'RateLimit-Reset')).toBe('40')

    const invalid = await call('POST', '/v1/links', {
      key: pkTest,
      ip: CLIENT,
      body: { campaignId: ACME, referrerId: '' },
    })
    expect(invalid.status).toBe(400)
    expect(header(invalid, 'RateLimit-Limit')).toBe('4')
    expect(header(invalid, 'RateLimit-Remaining')).toBe('0')

    const refused = await ask(call)
    expect(refused.status).toBe(429)
    expect(header(refused, 'RateLimit-Limit')).toBe('4')
    expect(header(refused, 'RateLimit-Remaining')).toBe('0')
    expect(header(refused, 'RateLimit-Reset')).toBe(header(refused, 'Retry-After'))
  })

  it('exposes the rate limit headers to browser code', async () => {
    const { call } = setup({ pkRateLimit: 1 })
    await ask(call)
    const refused = await ask(call, { headers: { Origin: 'https://shop.example' } })
    expect(refused.status).toBe(429)
    const exposed = (header(refused, 'Access-Control-Expose-Headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
    expect(exposed).toEqual(
      expect.arrayContaining([
        'retry-after',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
      ]),
    )
  })

  it('gives a different IP its own bucket', async () => {
    const { call } = setup({ pkRateLimit: 3 })
    await askTimes(call, 3)
    expectLimited(await ask(call))

    const other = await ask(call, { ip: OTHER_CLIENT })
    expect(other.status).toBe(200)
    expect(header(other, 'RateLimit-Remaining')).toBe('2')
    expectLimited(await ask(call))
  })

  it('gives each public key its own bucket per IP', async () => {
    const { call } = setup({ pkRateLimit: 2 })
    await askTimes(call, 2)
    expectLimited(await ask(call))
    const globex = await call('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.globex}`, {
      key: DEMO_KEYS.globex.pkTest,
      ip: CLIENT,
    })
    expect(globex.status).toBe(200)
  })

  it("uses a fixed 60 s window from the bucket's first counted request, not the clock's minute", async () => {
    const { call, clock } = setup({ pkRateLimit: 3 })
    clock.advance(30 * SECOND) // the manual clock starts on a whole minute; leave it
    await ask(call) // the window opens here, at hh:00:30
    clock.advance(20 * SECOND)
    await ask(call)
    clock.advance(20 * SECOND) // hh:01:10, past the clock's minute boundary
    const third = await ask(call)
    expect(third.status).toBe(200)
    expect(header(third, 'RateLimit-Reset')).toBe('20')

    clock.advance(20 * SECOND - 1) // 59.999 s after the first request
    expectLimited(await ask(call))

    clock.advance(1) // 60 s after the first request: a new window
    const fresh = await ask(call)
    expect(fresh.status).toBe(200)
    expect(header(fresh, 'RateLimit-Remaining')).toBe('2')
    expect(header(fresh, 'RateLimit-Reset')).toBe('60')
  })

  it('does not slide: requests spread over the window still use it up', async () => {
    const { call, clock } = setup({ pkRateLimit: 3 })
    await ask(call)
    clock.advance(58 * SECOND)
    await ask(call)
    await ask(call)
    expectLimited(await ask(call))
    clock.advance(2 * SECOND)
    // The new window opens with this request; the two requests of second 58 are no longer counted.
    const answers = await askTimes(call, 3)
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expectLimited(await ask(call))
  })

  it('does not count refused requests: hammering does not push the reset back', async () => {
    const { call, clock } = setup({ pkRateLimit: 3 })
    const start = clock.now()
    await askTimes(call, 3)
    let refused: Answer | undefined
    for (let i = 0; i < 29; i++) {
      clock.advance(2 * SECOND)
      refused = await ask(call)
      expectLimited(refused)
    }
    // 58 s in, after 29 refusals, the window still ends 60 s after the first request.
    expect(retryAfter(refused as Answer)).toBe(2)

    clock.set(start + MINUTE)
    const answers = await askTimes(call, 3)
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(header(answers[0] as Answer, 'RateLimit-Remaining')).toBe('2')
  })

  it('does not count CORS preflights, and answers them even when the bucket is empty', async () => {
    const { call } = setup({ pkRateLimit: 3 })
    const preflight = () =>
      call('OPTIONS', '/v1/events', {
        ip: CLIENT,
        headers: {
          Origin: 'https://shop.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      })
    for (let i = 0; i < 5; i++) {
      const answer = await preflight()
      expect(answer.status).toBe(204)
      expect(header(answer, 'RateLimit-Remaining')).toBeNull()
    }
    const answers = await askTimes(call, 3)
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(header(answers[0] as Answer, 'RateLimit-Remaining')).toBe('2')

    expectLimited(await ask(call))
    expect((await preflight()).status).toBe(204)
  })

  it('defaults to 100 requests per minute: the 101st is 429', async () => {
    const { call } = setup()
    const answers = await askTimes(call, 100)
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(header(answers[0] as Answer, 'RateLimit-Limit')).toBe('100')
    expect(header(answers[99] as Answer, 'RateLimit-Remaining')).toBe('0')
    expectLimited(await ask(call))
  })
})
