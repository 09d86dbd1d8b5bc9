// Rate limits (seed "Authentication", "Errors", "Limits"; CONTRACT.md "Rate limits") and the
// beacon form of /v1/events (CONTRACT.md "Beacon form of /v1/events").

import { describe, expect, it } from 'vitest'
import type { Campaign, EventResult, Link } from '../../demo/service/schemas.ts'
import {
  type Answer,
  DEMO_CAMPAIGNS,
  DEMO_KEYS,
  errorOf,
  MINUTE,
  SECOND,
  setup,
} from './helpers.ts'

const ACME = DEMO_CAMPAIGNS.acme
const { pkTest, skTest } = DEMO_KEYS.acme
const CLIENT = '198.51.100.7'
const OTHER_CLIENT = '203.0.113.9'
const PROXY = '10.0.0.1'

type Call = ReturnType<typeof setup>['call']

/** A cheap counted request: the public view of the seeded campaign. */
const ask = (
  call: Call,
  options: { key?: string; ip?: string; headers?: Record<string, string> } = {},
) => call('GET', `/v1/campaigns/${ACME}`, { key: pkTest, ip: CLIENT, ...options })

async function askTimes(call: Call, times: number, options: Parameters<typeof ask>[1] = {}) {
  const answers: Answer[] = []
  for (let i = 0; i < times; i++) answers.push(await ask(call, options))
  return answers
}

function expectLimited(answer: Answer) {
  expect(answer.status).toBe(429)
  expect(errorOf(answer)).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' })
  expect(answer.headers.get('Retry-After')).toMatch(/^[1-9][0-9]*$/)
}

const retryAfter = (answer: Answer) => Number(answer.headers.get('Retry-After'))
const header = (answer: Answer, name: string) => answer.headers.get(name)

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

  describe('forwarding headers', () => {
    it('ignores X-Forwarded-For without a trusted proxy: a client cannot escape its bucket', async () => {
      const { call } = setup({ pkRateLimit: 3 })
      for (const forged of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
        expect((await ask(call, { headers: { 'X-Forwarded-For': forged } })).status).toBe(200)
      }
      expectLimited(await ask(call, { headers: { 'X-Forwarded-For': '192.0.2.4' } }))
      expectLimited(await ask(call))
    })

    it('ignores Forwarded without a trusted proxy', async () => {
      const { call } = setup({ pkRateLimit: 3 })
      for (const forged of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
        expect((await ask(call, { headers: { Forwarded: `for=${forged}` } })).status).toBe(200)
      }
      expectLimited(await ask(call, { headers: { Forwarded: 'for=192.0.2.4' } }))
    })

    it('ignores forwarding headers from a peer that is not the trusted proxy', async () => {
      const { call } = setup({ pkRateLimit: 3, trustedProxies: [PROXY] })
      for (const forged of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
        const answer = await ask(call, {
          headers: { 'X-Forwarded-For': forged, Forwarded: `for=${forged}` },
        })
        expect(answer.status).toBe(200)
      }
      expectLimited(await ask(call, { headers: { 'X-Forwarded-For': '192.0.2.4' } }))
    })

    it("uses the client address in the trusted proxy's X-Forwarded-For", async () => {
      const { call } = setup({ pkRateLimit: 3, trustedProxies: [PROXY] })
      const via = (client: string) =>
        ask(call, { ip: PROXY, headers: { 'X-Forwarded-For': client } })
      await via(CLIENT)
      await via(CLIENT)
      await via(CLIENT)
      expectLimited(await via(CLIENT))

      const other = await via(OTHER_CLIENT)
      expect(other.status).toBe(200)
      expect(header(other, 'RateLimit-Remaining')).toBe('2')
      // Clients behind the proxy do not share the proxy's own bucket either.
      expect((await ask(call, { ip: PROXY })).status).toBe(200)
    })

    it('does not let a client behind the trusted proxy escape by prepending addresses', async () => {
      const { call } = setup({ pkRateLimit: 3, trustedProxies: [PROXY] })
      // The proxy appends the address it saw to whatever the client sent.
      const forged = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4']
      const answers: Answer[] = []
      for (const lie of forged) {
        answers.push(
          await ask(call, { ip: PROXY, headers: { 'X-Forwarded-For': `${lie}, ${CLIENT}` } }),
        )
      }
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429])
    })

    it("uses the client address in the trusted proxy's Forwarded header", async () => {
      const { call } = setup({ pkRateLimit: 3, trustedProxies: [PROXY] })
      const via = (client: string) =>
        ask(call, { ip: PROXY, headers: { Forwarded: `for=${client}` } })
      const answers: Answer[] = []
      for (let i = 0; i < 4; i++) answers.push(await via(CLIENT))
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429])

      // Another client behind the same proxy has a bucket of its own.
      const other = await via(OTHER_CLIENT)
      expect(other.status).toBe(200)
    })
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

describe('secret keys: per key', () => {
  const skAsk = (call: Call, ip: string, key: string = skTest) =>
    call('GET', `/v1/campaigns/${ACME}`, { key, ip })

  it('counts a secret key regardless of the IP it comes from', async () => {
    const { call } = setup({ skRateLimit: 3 })
    const answers = [
      await skAsk(call, '192.0.2.1'),
      await skAsk(call, '192.0.2.2'),
      await skAsk(call, '192.0.2.3'),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(header(answers[2] as Answer, 'RateLimit-Remaining')).toBe('0')
    expectLimited(await skAsk(call, '192.0.2.4'))
  })

  it('gives each secret key its own bucket', async () => {
    const { call } = setup({ skRateLimit: 2 })
    await skAsk(call, CLIENT)
    await skAsk(call, CLIENT)
    expectLimited(await skAsk(call, CLIENT))
    const globex = await call('GET', '/v1/campaigns', { key: DEMO_KEYS.globex.skTest, ip: CLIENT })
    expect(globex.status).toBe(200)
    const live = await call('GET', '/v1/campaigns', { key: DEMO_KEYS.acme.skLive, ip: CLIENT })
    expect(live.status).toBe(200)
  })

  it('keeps public and secret limits apart', async () => {
    const { call } = setup({ pkRateLimit: 2, skRateLimit: 5 })
    await askTimes(call, 2)
    expectLimited(await ask(call))
    const secret = await skAsk(call, CLIENT)
    expect(secret.status).toBe(200)
    expect(header(secret, 'RateLimit-Limit')).toBe('5')
    expect(header(secret, 'RateLimit-Remaining')).toBe('4')
  })

  it('resets after the 60 s window with a Retry-After to match', async () => {
    const { call, clock } = setup({ skRateLimit: 1 })
    await skAsk(call, CLIENT)
    clock.advance(10 * SECOND)
    const refused = await skAsk(call, CLIENT)
    expectLimited(refused)
    expect(retryAfter(refused)).toBe(50)
    clock.advance(50 * SECOND)
    expect((await skAsk(call, CLIENT)).status).toBe(200)
  })

  it('defaults to 1,000 requests per minute: the 1,001st is 429', async () => {
    const { call, clock } = setup()
    for (let i = 0; i < 1000; i++) {
      const answer = await skAsk(call, CLIENT)
      if (answer.status !== 200) throw new Error(`request ${i + 1} answered ${answer.status}`)
      if (i === 0) expect(header(answer, 'RateLimit-Limit')).toBe('1000')
    }
    clock.advance(MINUTE - 1)
    expectLimited(await skAsk(call, OTHER_CLIENT))
  })
})

describe('the beacon form of /v1/events', () => {
  type Results = { results: EventResult[] }

  async function makeLink(call: Call) {
    const answer = await call<Link>('POST', '/v1/links', {
      key: skTest,
      body: { campaignId: ACME, referrerId: 'alice' },
    })
    return answer.body.code
  }

  const beacon = (call: Call, body: unknown, ip: string = CLIENT) =>
    call<Results>('POST', '/v1/events', {
      ip,
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    })

  const clicks = async (call: Call) => {
    const answer = await call<Campaign>('GET', `/v1/campaigns/${ACME}`, { key: skTest })
    return answer.body.stats.totalClicks
  }

  it('takes a text/plain body carrying the public key, with no Authorization header', async () => {
    const { call } = setup()
    const code = await makeLink(call)
    const event = { id: 'evt_beacon01', type: 'click', code, visitorId: 'visitor_one' }

    const answer = await beacon(call, { key: pkTest, events: [event] })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ results: [{ id: 'evt_beacon01', status: 'accepted' }] })
    expect(await clicks(call)).toBe(1)
  })

  it('answers like the normal form: per-event results, duplicates, rejections', async () => {
    const { call } = setup()
    const code = await makeLink(call)
    const first = { id: 'evt_beacon01', type: 'click', code, visitorId: 'visitor_one' }
    const events = [
      first,
      { id: 'evt_beacon02', type: 'click', code: 'ZZZZZZZZZZ', visitorId: 'visitor_one' },
      first,
    ]
    const normal = await call<Results>('POST', '/v1/events', {
      key: pkTest,
      body: { events },
      ip: OTHER_CLIENT,
    })
    const viaBeacon = await beacon(call, {
      key: pkTest,
      events: events.map((event) => ({ ...event, id: event.id.replace('evt_', 'evb_') })),
    })
    expect(viaBeacon.status).toBe(normal.status)
    expect(viaBeacon.body.results.map((result) => [result.status, result.error?.code])).toEqual(
      normal.body.results.map((result) => [result.status, result.error?.code]),
    )
    expect(viaBeacon.body.results.map((result) => result.status)).toEqual([
      'accepted',
      'rejected',
      'duplicate',
    ])
    // An event sent first by beacon and retried normally is a duplicate.
    const retry = await call<Results>('POST', '/v1/events', {
      key: pkTest,
      body: { events: [{ ...first, id: 'evb_beacon01' }] },
    })
    expect(retry.body.results[0]?.status).toBe('duplicate')
    expect(await clicks(call)).toBe(2)
  })

  it('refuses a malformed envelope with 400, as the normal form does', async () => {
    const { call } = setup()
    const empty = await beacon(call, { key: pkTest, events: [] })
    expect(empty.status).toBe(400)
    expect(errorOf(empty)).toMatchObject({ code: 'parameter_invalid', param: 'events' })

    const code = await makeLink(call)
    const unknown = await beacon(call, {
      key: pkTest,
      events: [{ id: 'evt_beacon01', type: 'click', code, visitorId: 'visitor_one' }],
      extra: true,
    })
    expect(unknown.status).toBe(400)
    expect(errorOf(unknown)).toMatchObject({ code: 'parameter_unknown', param: 'extra' })
    expect(await clicks(call)).toBe(0)
  })

  it('refuses a secret key with 403 secret_key_required, recording nothing', async () => {
    const { call } = setup()
    const code = await makeLink(call)
    const answer = await beacon(call, {
      key: skTest,
      events: [{ id: 'evt_beacon01', type: 'click', code, visitorId: 'visitor_one' }],
    })
    expect(answer.status).toBe(403)
    expect(errorOf(answer)).toMatchObject({ type: 'permission_error', code: 'secret_key_required' })
    expect(await clicks(call)).toBe(0)
  })

  it('answers 401 missing_api_key when the body carries no key', async () => {
    const { call } = setup()
    const code = await makeLink(call)
    const answer = await beacon(call, {
      events: [{ id: 'evt_beacon01', type: 'click', code, visitorId: 'visitor_one' }],
    })
    expect(answer.status).toBe(401)
    expect(errorOf(answer)).toMatchObject({
      type: 'authentication_error',
      code: 'missing_api_key',
    })
    expect(await clicks(call)).toBe(0)
  })

  it('answers 401 invalid_api_key for an unknown key', async () => {
    const { call } = setup()
    const answer = await beacon(call, { key: 'pk_test_nobody', events: [] })
    expect(answer.status).toBe(401)
    expect(errorOf(answer)).toMatchObject({ code: 'invalid_api_key' })
  })

  it('is counted in the same bucket as the normal requests of that IP', async () => {
    const { call } = setup({ pkRateLimit: 3 })
    const code = await makeLink(call)
    const event = (n: number) => ({
      id: `evt_beacon0${n}`,
      type: 'click',
      code,
      visitorId: 'visitor_one',
    })

    expect((await ask(call)).status).toBe(200)
    const first = await beacon(call, { key: pkTest, events: [event(1)] })
    expect(first.status).toBe(200)
    expect(header(first, 'RateLimit-Limit')).toBe('3')
    expect(header(first, 'RateLimit-Remaining')).toBe('1')
    expect((await ask(call)).status).toBe(200)

    const refused = await beacon(call, { key: pkTest, events: [event(2)] })
    expectLimited(refused)
    expectLimited(await ask(call))
    expect(await clicks(call)).toBe(1)

    // Another IP's beacons have their own bucket.
    expect((await beacon(call, { key: pkTest, events: [event(3)] }, OTHER_CLIENT)).status).toBe(200)
  })
})
