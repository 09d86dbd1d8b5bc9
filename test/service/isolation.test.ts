// Contract tests for isolation: test and live modes, and organizations, are separate worlds for
// campaigns, links and events; the seed's interface plus CONTRACT.md's decisions.

import { describe, expect, test } from 'vitest'
import type { Campaign, EventsResponse, Link } from '../../demo/service/schemas.ts'
import { ACME, eventsBody, expectErrorBody, GLOBEX } from './contract-checks.ts'
import { campaignBody, DEMO_CAMPAIGNS, errorOf, setup } from './helpers.ts'

describe('test and live modes are separate worlds', () => {
  test.each([
    ['test', 'live', ACME.skTest, ACME.skLive, ACME.pkLive],
    ['live', 'test', ACME.skLive, ACME.skTest, ACME.pkTest],
  ])(
    'a campaign made in %s mode is 404 and unlisted in %s mode',
    async (_from, _to, maker, otherSk, otherPk) => {
      const { call } = setup()
      const made = await call<Campaign>('POST', '/v1/campaigns', {
        key: maker,
        body: campaignBody('Mode bound'),
      })
      expect(made.status).toBe(201)
      const id = made.body.id

      for (const key of [otherSk, otherPk]) {
        expectErrorBody(await call('GET', `/v1/campaigns/${id}`, { key }), 404, 'resource_missing')
        const listed = await call<{ data: { id: string }[] }>('GET', '/v1/campaigns', { key })
        expect(listed.body.data.map((c) => c.id)).not.toContain(id)
      }
      expectErrorBody(
        await call('PATCH', `/v1/campaigns/${id}`, { key: otherSk, body: { status: 'paused' } }),
        404,
        'resource_missing',
      )
      const still = await call<Campaign>('GET', `/v1/campaigns/${id}`, { key: maker })
      expect(still.body.status).toBe('active')
    },
  )

  test('links and events of test mode do not exist in live mode', async () => {
    const { call } = setup()
    expectErrorBody(
      await call('POST', '/v1/links', {
        key: ACME.pkLive,
        body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' },
      }),
      404,
    )
    const link = await call<Link>('POST', '/v1/links', {
      key: ACME.pkTest,
      body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' },
    })
    expect(link.status).toBe(201)
    const code = link.body.code
    for (const key of [ACME.pkLive, ACME.skLive]) {
      expectErrorBody(await call('GET', `/v1/links/${code}`, { key }), 404, 'resource_missing')
    }
    const click = await call<EventsResponse>('POST', '/v1/events', {
      key: ACME.pkLive,
      body: eventsBody('evt_mode_00001', code),
    })
    expect(click.status).toBe(200)
    expect(click.body.results[0]).toMatchObject({
      id: 'evt_mode_00001',
      status: 'rejected',
      error: { code: 'unknown_code' },
    })
    const campaign = await call<Campaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: ACME.skTest,
    })
    expect(campaign.body.stats.totalClicks).toBe(0)
  })
})

describe('organizations are separate worlds', () => {
  test("another org's campaign is 404 for detail and patch, and absent from the list", async () => {
    const { call } = setup()
    for (const key of [GLOBEX.skTest, GLOBEX.pkTest]) {
      expectErrorBody(
        await call('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, { key }),
        404,
        'resource_missing',
      )
      const listed = await call<{ data: { id: string }[]; total: number }>('GET', '/v1/campaigns', {
        key,
      })
      expect(listed.body.data.map((c) => c.id)).toEqual([DEMO_CAMPAIGNS.globex])
      expect(listed.body.total).toBe(1)
    }
    expectErrorBody(
      await call('PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
        key: GLOBEX.skTest,
        body: { status: 'archived' },
      }),
      404,
      'resource_missing',
    )
    const acme = await call<Campaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: ACME.skTest,
    })
    expect(acme.body.status).toBe('active')
  })

  test("a 404 for another org's id is the same answer as for an id that never existed", async () => {
    const { call } = setup()
    const foreign = await call('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: GLOBEX.skTest,
    })
    const never = await call('GET', '/v1/campaigns/camp_neverNeverNever1', { key: GLOBEX.skTest })
    expect(errorOf(foreign)).toEqual(errorOf(never))
  })

  test("links: another org's campaign cannot be linked, nor its codes resolved", async () => {
    const { call } = setup()
    expectErrorBody(
      await call('POST', '/v1/links', {
        key: GLOBEX.pkTest,
        body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' },
      }),
      404,
      'resource_missing',
    )
    const link = await call<Link>('POST', '/v1/links', {
      key: ACME.pkTest,
      body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' },
    })
    expect(link.status).toBe(201)
    for (const key of [GLOBEX.pkTest, GLOBEX.skTest]) {
      expectErrorBody(
        await call('GET', `/v1/links/${link.body.code}`, { key }),
        404,
        'resource_missing',
      )
    }
    const own = await call<Link>('GET', `/v1/links/${link.body.code}`, { key: ACME.pkTest })
    expect(own.status).toBe(200)
    expect(own.body.id).toBe(link.body.id)
  })

  test("events: a click with another org's code is rejected unknown_code and counts nowhere", async () => {
    const { call } = setup()
    const link = await call<Link>('POST', '/v1/links', {
      key: ACME.pkTest,
      body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' },
    })
    const click = await call<EventsResponse>('POST', '/v1/events', {
      key: GLOBEX.pkTest,
      body: eventsBody('evt_org_000001', link.body.code),
    })
    expect(click.status).toBe(200)
    expect(click.body.results).toEqual([
      expect.objectContaining({
        id: 'evt_org_000001',
        status: 'rejected',
        error: expect.objectContaining({ code: 'unknown_code' }),
      }),
    ])
    const stats = async (key: string, id: string) =>
      (await call<Campaign>('GET', `/v1/campaigns/${id}`, { key })).body.stats.totalClicks
    expect(await stats(ACME.skTest, DEMO_CAMPAIGNS.acme)).toBe(0)
    expect(await stats(GLOBEX.skTest, DEMO_CAMPAIGNS.globex)).toBe(0)

    // The same event id, sent by its own org, is still new there.
    const own = await call<EventsResponse>('POST', '/v1/events', {
      key: ACME.pkTest,
      body: eventsBody('evt_org_000001', link.body.code),
    })
    expect(own.body.results[0]?.status).toBe('accepted')
    expect(await stats(ACME.skTest, DEMO_CAMPAIGNS.acme)).toBe(1)
  })
})
