// Rate limits of secret keys, per key whatever the client IP (seed "Limits"; CONTRACT.md "Rate
// limits").

import { describe, expect, it } from 'vitest'
import { type Answer, DEMO_KEYS, MINUTE, SECOND, setup } from './helpers.ts'
import {
  ACME,
  ask,
  askTimes,
  type Call,
  CLIENT,
  expectLimited,
  header,
  OTHER_CLIENT,
  retryAfter,
  skTest,
} from './rate-limit-support.ts'

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
