// POST /v1/events: per-event results and exactly-once counting (CONTRACT.md "Events"): each
// event accepted, duplicate or rejected on its own, in request order, and an id counted once.

import { describe, expect, it } from 'vitest'
import type { Link } from '../../demo/service/schemas.ts'
import {
  click,
  makeLink,
  NO_ACTIVITY,
  send,
  signup,
  skTest,
  stats,
  track,
} from './events-support.ts'
import { DEMO_CAMPAIGNS, DEMO_KEYS, HOUR, setup } from './helpers.ts'

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
        (code) => ({ id: 'evt_badtype1', type: 'view', code, visitorId: 'visitor_bad' }),
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
    expect(after).toEqual({
      totalClicks: 2,
      totalConversions: 1,
      totalRewardsIssued: 2,
      selfReferrals: 0,
      reversedConversions: 0,
    })

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
