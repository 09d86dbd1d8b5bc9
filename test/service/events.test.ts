// POST /v1/events: the envelope, per-event results, exactly-once counting and attribution
// (CONTRACT.md "Events").

import { describe, expect, it } from 'vitest'
import type { Campaign, EventResult, Link } from '../../demo/service/schemas.ts'
import {
  createCampaign,
  DAY,
  DEMO_CAMPAIGNS,
  DEMO_KEYS,
  errorOf,
  HOUR,
  MINUTE,
  SECOND,
  setup,
} from './helpers.ts'

const ACME = DEMO_CAMPAIGNS.acme
const { pkTest, skTest } = DEMO_KEYS.acme

type Call = ReturnType<typeof setup>['call']
type Results = { results: EventResult[] }

interface ClickEvent {
  id: string
  type: 'click'
  code?: string
  visitorId: string
  occurredAt?: string
}
interface SignupEvent {
  id: string
  type: 'signup'
  code?: string
  visitorId: string
  userId?: string
  occurredAt?: string
}

let serial = 0
/** A fresh, well-formed event id. */
const eventId = () => `evt_${String(++serial).padStart(8, '0')}`

const click = (code: string, visitorId: string, extra: Partial<ClickEvent> = {}): ClickEvent => ({
  id: eventId(),
  type: 'click',
  code,
  visitorId,
  ...extra,
})

const signup = (
  visitorId: string,
  userId: string,
  extra: Partial<SignupEvent> = {},
): SignupEvent => ({ id: eventId(), type: 'signup', visitorId, userId, ...extra })

function send(call: Call, events: unknown[], key: string = pkTest) {
  return call<Results>('POST', '/v1/events', { key, body: { events } })
}

/** Sends events and checks each was accepted. */
async function track(call: Call, ...events: unknown[]) {
  const answer = await send(call, events)
  expect(answer.status).toBe(200)
  expect(answer.body.results.map((result) => result.status)).toEqual(events.map(() => 'accepted'))
  return answer
}

async function makeLink(call: Call, referrerId: string, campaignId: string = ACME) {
  const answer = await call<Link>('POST', '/v1/links', {
    key: pkTest,
    body: { campaignId, referrerId },
  })
  expect([200, 201]).toContain(answer.status)
  return answer.body.code
}

async function stats(call: Call, campaignId: string = ACME) {
  const answer = await call<Campaign>('GET', `/v1/campaigns/${campaignId}`, { key: skTest })
  expect(answer.status).toBe(200)
  return answer.body.stats
}

const NO_ACTIVITY = { totalClicks: 0, totalConversions: 0, totalRewardsIssued: 0 }

describe('the envelope', () => {
  it.each([
    ['an array', []],
    ['a string', 'events'],
    ['a number', 7],
    ['null', null],
  ])('refuses a body that is %s with 400', async (_, body) => {
    const { call } = setup()
    const answer = await call('POST', '/v1/events', { key: pkTest, body: JSON.stringify(body) })
    expect(answer.status).toBe(400)
    expect(errorOf(answer).type).toBe('invalid_request_error')
  })

  it('refuses a body without events: 400 parameter_missing naming events', async () => {
    const { call } = setup()
    const answer = await call('POST', '/v1/events', { key: pkTest, body: {} })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({ code: 'parameter_missing', param: 'events' })
  })

  it.each([
    ['an object', { 0: { id: 'evt_00000000' } }],
    ['a string', 'click'],
    ['null', null],
  ])('refuses events that is %s: 400 parameter_invalid naming events', async (_, events) => {
    const { call } = setup()
    const answer = await call('POST', '/v1/events', { key: pkTest, body: { events } })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      param: 'events',
    })
  })

  it('refuses 0 events with 400', async () => {
    const { call } = setup()
    const answer = await send(call, [])
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({ code: 'parameter_invalid', param: 'events' })
  })

  it('refuses 101 events with 400 and records none of them', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const events = Array.from({ length: 101 }, (_, i) => click(code, `visitor_${i}_xx`))

    const answer = await send(call, events)
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({ code: 'parameter_invalid', param: 'events' })
    expect(await stats(call)).toEqual(NO_ACTIVITY)
  })

  it('takes 100 events in one request and answers one result for each', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const events = Array.from({ length: 100 }, (_, i) => click(code, `visitor_${i}_xx`))

    const answer = await send(call, events)
    expect(answer.status).toBe(200)
    expect(answer.body.results).toHaveLength(100)
    expect(answer.body.results.every((result) => result.status === 'accepted')).toBe(true)
    expect((await stats(call)).totalClicks).toBe(100)
  })

  it('refuses an unknown top-level field: 400 parameter_unknown, nothing recorded', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const answer = await call('POST', '/v1/events', {
      key: pkTest,
      body: { events: [click(code, 'visitor_one')], batch: 1 },
    })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({ code: 'parameter_unknown', param: 'batch' })
    expect((await stats(call)).totalClicks).toBe(0)
  })

  it('refuses a body that is not JSON: 400 invalid_json', async () => {
    const { call } = setup()
    const answer = await call('POST', '/v1/events', { key: pkTest, body: '{"events": [' })
    expect(answer.status).toBe(400)
    expect(errorOf(answer).code).toBe('invalid_json')
  })
})

describe('per-event results', () => {
  it('answers accepted, duplicate and rejected in request order, each with its id', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const first = click(code, 'visitor_one')
    await track(call, first)

    const fresh = click(code, 'visitor_two')
    const unknown = click('ZZZZZZZZZZ', 'visitor_three')
    const later = signup('visitor_two', 'user_two')
    const answer = await send(call, [unknown, first, fresh, later])

    expect(answer.status).toBe(200)
    expect(answer.body.results).toEqual([
      {
        id: unknown.id,
        status: 'rejected',
        error: { code: 'unknown_code', message: expect.any(String) },
      },
      { id: first.id, status: 'duplicate' },
      { id: fresh.id, status: 'accepted' },
      { id: later.id, status: 'accepted' },
    ])
  })

  it('counts an accepted click in the campaign stats', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_one'))
    expect(await stats(call)).toEqual({ ...NO_ACTIVITY, totalClicks: 1 })
    await track(call, click(code, 'visitor_two'))
    expect((await stats(call)).totalClicks).toBe(2)
  })

  it('takes events from a secret key too', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const answer = await send(call, [click(code, 'visitor_one')], skTest)
    expect(answer.status).toBe(200)
    expect(answer.body.results[0]?.status).toBe('accepted')
    expect((await stats(call)).totalClicks).toBe(1)
  })

  it('rejects a click whose code is unknown with unknown_code, counting nothing', async () => {
    const { call } = setup()
    await makeLink(call, 'alice')
    const event = click('ZZZZZZZZZZ', 'visitor_one')
    const answer = await send(call, [event])
    expect(answer.status).toBe(200)
    expect(answer.body.results).toEqual([
      {
        id: event.id,
        status: 'rejected',
        error: { code: 'unknown_code', message: expect.any(String) },
      },
    ])
    expect((await stats(call)).totalClicks).toBe(0)
  })

  it.each([
    ["another organization's", DEMO_KEYS.globex.pkTest],
    ["the other mode's", DEMO_KEYS.acme.pkLive],
  ])('rejects a click on a code of %s world with unknown_code', async (_, key) => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const answer = await send(call, [click(code, 'visitor_one')], key)
    expect(answer.status).toBe(200)
    expect(answer.body.results[0]).toMatchObject({
      status: 'rejected',
      error: { code: 'unknown_code' },
    })
    expect((await stats(call)).totalClicks).toBe(0)
  })

  describe('malformed single events are rejected without failing the batch', () => {
    const cases: Array<[string, (code: string) => Record<string, unknown>]> = [
      [
        'an id that is too short',
        (code) => ({ id: 'e1', type: 'click', code, visitorId: 'visitor_bad' }),
      ],
      [
        'an id with forbidden characters',
        (code) => ({ id: 'evt 0000 0001', type: 'click', code, visitorId: 'visitor_bad' }),
      ],
      [
        'an id of 65 characters',
        (code) => ({ id: 'e'.repeat(65), type: 'click', code, visitorId: 'visitor_bad' }),
      ],
      ['no visitorId', (code) => ({ id: 'evt_novisitor', type: 'click', code })],
      [
        'a visitorId that is too short',
        (code) => ({ id: 'evt_shortvis', type: 'click', code, visitorId: 'v1' }),
      ],
      [
        'an unknown type',
        (code) => ({ id: 'evt_badtype1', type: 'refund', code, visitorId: 'visitor_bad' }),
      ],
      ['no type', (code) => ({ id: 'evt_notype01', code, visitorId: 'visitor_bad' })],
      [
        'a click without code',
        () => ({ id: 'evt_nocode01', type: 'click', visitorId: 'visitor_bad' }),
      ],
      [
        'a signup without userId',
        (code) => ({ id: 'evt_nouser01', type: 'signup', code, visitorId: 'visitor_bad' }),
      ],
    ]

    it.each(cases)('%s', async (_, make) => {
      const { call } = setup()
      const code = await makeLink(call, 'alice')
      const bad = make(code)
      const before = click(code, 'visitor_before')
      const after = click(code, 'visitor_after')

      const answer = await send(call, [before, bad, after])
      expect(answer.status).toBe(200)
      expect(answer.body.results).toHaveLength(3)
      expect(answer.body.results[0]).toEqual({ id: before.id, status: 'accepted' })
      expect(answer.body.results[1]).toMatchObject({
        status: 'rejected',
        error: { code: expect.any(String), message: expect.any(String) },
      })
      expect(answer.body.results[2]).toEqual({ id: after.id, status: 'accepted' })
      // The two good clicks count, the bad event does not.
      expect((await stats(call)).totalClicks).toBe(2)
    })

    it('rejects an event that is not an object, keeping its place in the results', async () => {
      const { call } = setup()
      const code = await makeLink(call, 'alice')
      const good = click(code, 'visitor_good')
      const answer = await send(call, ['click', good, null])
      expect(answer.status).toBe(200)
      expect(answer.body.results.map((result) => result.status)).toEqual([
        'rejected',
        'accepted',
        'rejected',
      ])
      expect(answer.body.results[1]?.id).toBe(good.id)
    })

    it('echoes the id of a rejected event, so the client can match results to events', async () => {
      const { call } = setup()
      const event = { id: 'evt_nocode01', type: 'click', visitorId: 'visitor_bad' }
      const answer = await send(call, [event])
      expect(answer.body.results[0]).toMatchObject({ id: 'evt_nocode01', status: 'rejected' })
    })

    it('does not burn the id of a rejected event: the corrected event is accepted later', async () => {
      const { call } = setup()
      const code = await makeLink(call, 'alice')
      const wrong = click('ZZZZZZZZZZ', 'visitor_one')
      expect((await send(call, [wrong])).body.results[0]?.status).toBe('rejected')

      const corrected = { ...wrong, code }
      const answer = await send(call, [corrected])
      expect(answer.body.results[0]).toEqual({ id: wrong.id, status: 'accepted' })
      expect((await stats(call)).totalClicks).toBe(1)
    })
  })
})

describe('exactly-once counting', () => {
  it('answers duplicate for a click id accepted earlier and does not count it again', async () => {
    const { call, clock } = setup()
    const code = await makeLink(call, 'alice')
    const event = click(code, 'visitor_one')
    await track(call, event)

    clock.advance(HOUR)
    const answer = await send(call, [event])
    expect(answer.status).toBe(200)
    expect(answer.body.results).toEqual([{ id: event.id, status: 'duplicate' }])
    expect((await stats(call)).totalClicks).toBe(1)
  })

  it('answers duplicate for a reused id even when the rest of the event differs', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const event = click(code, 'visitor_one')
    await track(call, event)

    const answer = await send(call, [{ ...event, visitorId: 'visitor_two' }])
    expect(answer.body.results[0]?.status).toBe('duplicate')
    expect((await stats(call)).totalClicks).toBe(1)
  })

  it('answers duplicate for the second of two events with the same id in one batch', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const event = click(code, 'visitor_one')
    const answer = await send(call, [event, event])
    expect(answer.body.results).toEqual([
      { id: event.id, status: 'accepted' },
      { id: event.id, status: 'duplicate' },
    ])
    expect((await stats(call)).totalClicks).toBe(1)
  })

  it('a retried signup is duplicate and converts nothing more, whatever user it names', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_one'), click(code, 'visitor_two'))
    const event = signup('visitor_one', 'user_one')
    await track(call, event)
    const after = await stats(call)
    expect(after).toEqual({ totalClicks: 2, totalConversions: 1, totalRewardsIssued: 2 })

    const retry = await send(call, [
      event,
      { ...event, visitorId: 'visitor_two', userId: 'user_two' },
    ])
    expect(retry.body.results.map((result) => result.status)).toEqual(['duplicate', 'duplicate'])
    expect(await stats(call)).toEqual(after)
  })

  it('keeps event ids apart per organization and mode', async () => {
    const { call } = setup()
    const acmeCode = await makeLink(call, 'alice')
    const globex = await call<Link>('POST', '/v1/links', {
      key: DEMO_KEYS.globex.pkTest,
      body: { campaignId: DEMO_CAMPAIGNS.globex, referrerId: 'alice' },
    })
    const id = 'evt_sharedid'
    await track(call, { id, type: 'click', code: acmeCode, visitorId: 'visitor_one' })

    const answer = await send(
      call,
      [{ id, type: 'click', code: globex.body.code, visitorId: 'visitor_one' }],
      DEMO_KEYS.globex.pkTest,
    )
    expect(answer.body.results[0]).toEqual({ id, status: 'accepted' })
  })
})

describe('attribution', () => {
  it('converts a signup of a visitor who clicked: +1 conversion, +2 rewards', async () => {
    const { call, clock } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_one'))
    clock.advance(DAY)
    await track(call, signup('visitor_one', 'user_new', { code }))

    expect(await stats(call)).toEqual({
      totalClicks: 1,
      totalConversions: 1,
      totalRewardsIssued: 2,
    })
  })

  it('converts on the last day of the 30d window of the seeded campaign', async () => {
    const { call, clock } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_one'))
    clock.advance(30 * DAY - MINUTE)
    await track(call, signup('visitor_one', 'user_new', { code }))
    expect((await stats(call)).totalConversions).toBe(1)
  })

  it('does not convert a signup after the 30d window of the seeded campaign', async () => {
    const { call, clock } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_one'))
    clock.advance(30 * DAY + SECOND)
    const answer = await send(call, [signup('visitor_one', 'user_new', { code })])
    expect(answer.body.results[0]?.status).toBe('accepted')
    expect(await stats(call)).toEqual({ ...NO_ACTIVITY, totalClicks: 1 })
  })

  it("honours a campaign's own attributionWindow ('1d')", async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { attributionWindow: '1d' })
    const code = await makeLink(call, 'alice', campaign)
    await track(call, click(code, 'visitor_late'), click(code, 'visitor_early'))

    clock.advance(23 * HOUR)
    await track(call, signup('visitor_early', 'user_early', { code }))
    expect((await stats(call, campaign)).totalConversions).toBe(1)

    clock.advance(2 * HOUR) // 25 hours after the clicks
    await track(call, signup('visitor_late', 'user_late', { code }))
    expect((await stats(call, campaign)).totalConversions).toBe(1)
  })

  it("measures the window on the server's clock: a signup's occurredAt inside the window does not help", async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { attributionWindow: '1d' })
    const code = await makeLink(call, 'alice', campaign)
    const clickedAt = new Date(clock.now()).toISOString()
    await track(call, click(code, 'visitor_one', { occurredAt: clickedAt }))

    clock.advance(2 * DAY)
    await track(call, signup('visitor_one', 'user_one', { code, occurredAt: clickedAt }))
    expect((await stats(call, campaign)).totalConversions).toBe(0)
  })

  it("measures the window on the server's clock: occurredAt far outside the window does not hurt", async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { attributionWindow: '1d' })
    const code = await makeLink(call, 'alice', campaign)
    const longAgo = new Date(clock.now() - 90 * DAY).toISOString()
    const farAhead = new Date(clock.now() + 90 * DAY).toISOString()
    await track(call, click(code, 'visitor_one', { occurredAt: longAgo }))

    clock.advance(HOUR)
    await track(call, signup('visitor_one', 'user_one', { code, occurredAt: farAhead }))
    expect((await stats(call, campaign)).totalConversions).toBe(1)
  })

  it('credits a signup without code to the most recent click of that visitor', async () => {
    const { call, clock } = setup()
    const first = await createCampaign(call)
    const second = await createCampaign(call)
    const firstCode = await makeLink(call, 'alice', first)
    const secondCode = await makeLink(call, 'bob', second)
    await track(call, click(firstCode, 'visitor_one'))
    clock.advance(HOUR)
    await track(call, click(secondCode, 'visitor_one'))
    clock.advance(HOUR)

    await track(call, signup('visitor_one', 'user_one'))
    expect((await stats(call, first)).totalConversions).toBe(0)
    expect((await stats(call, second)).totalConversions).toBe(1)
  })

  it('credits a signup without code to the most recent click still inside its window', async () => {
    const { call, clock } = setup()
    const long = await createCampaign(call, { attributionWindow: '30d' })
    const short = await createCampaign(call, { attributionWindow: '1d' })
    const longCode = await makeLink(call, 'alice', long)
    const shortCode = await makeLink(call, 'bob', short)
    await track(call, click(longCode, 'visitor_one'))
    clock.advance(HOUR)
    await track(call, click(shortCode, 'visitor_one')) // the most recent click, but its window is 1d
    clock.advance(2 * DAY)

    await track(call, signup('visitor_one', 'user_one'))
    expect((await stats(call, short)).totalConversions).toBe(0)
    expect((await stats(call, long)).totalConversions).toBe(1)
  })

  it('does not credit a signup naming a code the visitor never clicked', async () => {
    const { call } = setup()
    const aliceCode = await makeLink(call, 'alice')
    const bobCode = await makeLink(call, 'bob')
    await track(call, click(aliceCode, 'visitor_one'))
    await track(call, signup('visitor_other', 'user_one', { code: bobCode }))
    expect((await stats(call)).totalConversions).toBe(0)
  })

  it('accepts a signup by a visitor who never clicked, without a conversion', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_clicked'))
    const answer = await send(call, [signup('visitor_stranger', 'user_one')])
    expect(answer.status).toBe(200)
    expect(answer.body.results[0]?.status).toBe('accepted')
    expect(await stats(call)).toEqual({ ...NO_ACTIVITY, totalClicks: 1 })
  })

  it('does not convert a self-referral (userId is the referrer), but converts another user', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    await track(call, click(code, 'visitor_one'))

    await track(call, signup('visitor_one', 'alice', { code }))
    expect((await stats(call)).totalConversions).toBe(0)

    await track(call, signup('visitor_one', 'carol', { code }))
    expect((await stats(call)).totalConversions).toBe(1)
  })

  it('converts the same userId once per campaign', async () => {
    const { call } = setup()
    const aliceCode = await makeLink(call, 'alice')
    const bobCode = await makeLink(call, 'bob')
    await track(call, click(aliceCode, 'visitor_one'), click(bobCode, 'visitor_two'))

    await track(call, signup('visitor_one', 'user_dave', { code: aliceCode }))
    await track(call, signup('visitor_two', 'user_dave', { code: bobCode }))
    expect(await stats(call)).toEqual({
      totalClicks: 2,
      totalConversions: 1,
      totalRewardsIssued: 2,
    })
  })

  it('stops conversions at maxReferralsPerUser (lifetime), per referrer', async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { limits: { maxReferralsPerUser: 2 } })
    const aliceCode = await makeLink(call, 'alice', campaign)
    const bobCode = await makeLink(call, 'bob', campaign)

    for (const n of [1, 2, 3]) {
      await track(call, click(aliceCode, `visitor_a${n}_xx`))
      await track(call, signup(`visitor_a${n}_xx`, `user_a${n}`, { code: aliceCode }))
      clock.advance(DAY) // lifetime: days passing does not reset it
    }
    expect((await stats(call, campaign)).totalConversions).toBe(2)

    clock.advance(10 * DAY)
    await track(call, click(aliceCode, 'visitor_a4_xx'))
    await track(call, signup('visitor_a4_xx', 'user_a4', { code: aliceCode }))
    expect((await stats(call, campaign)).totalConversions).toBe(2)

    // Another referrer has a limit of their own.
    await track(call, click(bobCode, 'visitor_b1_xx'))
    await track(call, signup('visitor_b1_xx', 'user_b1', { code: bobCode }))
    expect(await stats(call, campaign)).toMatchObject({
      totalConversions: 3,
      totalRewardsIssued: 6,
    })
  })

  it('stops conversions at maxReferralsPerDay and allows more on the next UTC day', async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { limits: { maxReferralsPerDay: 2 } })
    const code = await makeLink(call, 'alice', campaign)
    clock.set(Date.UTC(2026, 0, 20, 22, 0))

    for (const n of [1, 2, 3]) {
      await track(call, click(code, `visitor_d${n}_xx`))
      await track(call, signup(`visitor_d${n}_xx`, `user_d${n}`, { code }))
    }
    expect((await stats(call, campaign)).totalConversions).toBe(2)

    // 2.5 hours later it is a new UTC day, though fewer than 24 hours have passed.
    clock.set(Date.UTC(2026, 0, 21, 0, 30))
    await track(call, click(code, 'visitor_d4_xx'))
    await track(call, signup('visitor_d4_xx', 'user_d4', { code }))
    expect((await stats(call, campaign)).totalConversions).toBe(3)
  })

  it('counts maxReferralsPerDay per referrer', async () => {
    const { call } = setup()
    const campaign = await createCampaign(call, { limits: { maxReferralsPerDay: 1 } })
    const aliceCode = await makeLink(call, 'alice', campaign)
    const bobCode = await makeLink(call, 'bob', campaign)
    await track(call, click(aliceCode, 'visitor_one'), click(aliceCode, 'visitor_two'))
    await track(call, click(bobCode, 'visitor_three'))

    await track(call, signup('visitor_one', 'user_one', { code: aliceCode }))
    await track(call, signup('visitor_two', 'user_two', { code: aliceCode }))
    await track(call, signup('visitor_three', 'user_three', { code: bobCode }))
    expect((await stats(call, campaign)).totalConversions).toBe(2)
  })

  it('lets a user stopped by the daily limit convert on the next UTC day', async () => {
    const { call, clock } = setup()
    const campaign = await createCampaign(call, { limits: { maxReferralsPerDay: 1 } })
    const code = await makeLink(call, 'alice', campaign)
    await track(call, click(code, 'visitor_one'), click(code, 'visitor_two'))
    await track(call, signup('visitor_one', 'user_one', { code }))
    const refused = signup('visitor_two', 'user_two', { code })
    await track(call, refused)
    expect((await stats(call, campaign)).totalConversions).toBe(1)

    clock.set(Date.UTC(2026, 0, 16, 0, 0, 1))
    // A new signup event (the first one was consumed) of the same user, still inside the window.
    await track(call, signup('visitor_two', 'user_two', { code }))
    expect((await stats(call, campaign)).totalConversions).toBe(2)
  })
})
