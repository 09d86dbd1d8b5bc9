// The beacon form of /v1/events (CONTRACT.md "Beacon form of /v1/events"): the key in a
// text/plain body, answers as the normal form gives them, and the same rate-limit bucket.

import { describe, expect, it } from 'vitest'
import type { Campaign, EventResult, Link } from '../../demo/service/schemas.ts'
import { errorOf, setup } from './helpers.ts'
import {
  ACME,
  ask,
  type Call,
  CLIENT,
  expectLimited,
  header,
  OTHER_CLIENT,
  pkTest,
  skTest,
} from './rate-limit-support.ts'

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
