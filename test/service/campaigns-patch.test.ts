// Contract tests for PATCH /v1/campaigns/:id: partial merges, validation that changes nothing,
// fields that cannot be updated, updatedAt and the answer's shape; the seed's interface plus
// CONTRACT.md's decisions.

import { describe, expect, test } from 'vitest'
import { expectError, ISO_WITH_MS, show, withPath, world } from './campaign-world.ts'
import { DEMO_CAMPAIGNS, DEMO_KEYS, MINUTE, SECOND } from './helpers.ts'

describe('PATCH /v1/campaigns/:id', () => {
  test('sending only referrerReward.amount keeps its type and currency and the other reward', async () => {
    const { patch, detail } = world()
    const key = DEMO_KEYS.globex.skTest
    const answer = await patch(DEMO_CAMPAIGNS.globex, { referrerReward: { amount: 25 } }, key)
    expect(answer.status).toBe(200)
    const shown = await detail(DEMO_CAMPAIGNS.globex, key)
    expect(shown.referrerReward).toEqual({ type: 'credit', amount: 25, currency: 'EUR' })
    expect(shown.referredReward).toEqual({ type: 'credit', amount: 15, currency: 'EUR' })
    expect(shown.name).toBe('Globex invite a friend')
    expect(shown.attributionWindow).toBe('7d')
  })

  test('sending only a currency keeps the amount', async () => {
    const { patch, detail } = world()
    expect((await patch(DEMO_CAMPAIGNS.acme, { referredReward: { currency: 'GBP' } })).status).toBe(
      200,
    )
    const shown = await detail(DEMO_CAMPAIGNS.acme)
    expect(shown.referredReward).toEqual({
      type: 'credit',
      amount: 10,
      currency: 'GBP',
      promotionCode: 'FRIEND10',
    })
    expect(shown.referrerReward).toEqual({ type: 'credit', amount: 10, currency: 'USD' })
  })

  test('limits are merged partially', async () => {
    const { patch, detail } = world()
    expect((await patch(DEMO_CAMPAIGNS.acme, { limits: { maxReferralsPerDay: 5 } })).status).toBe(
      200,
    )
    expect((await detail(DEMO_CAMPAIGNS.acme)).limits).toEqual({
      maxReferralsPerUser: 50,
      maxReferralsPerDay: 5,
    })
    expect((await patch(DEMO_CAMPAIGNS.acme, { limits: { maxReferralsPerUser: 9 } })).status).toBe(
      200,
    )
    expect((await detail(DEMO_CAMPAIGNS.acme)).limits).toEqual({
      maxReferralsPerUser: 9,
      maxReferralsPerDay: 5,
    })
  })

  // The contract shows unset limits as null; a demanding user expects to unset one the same way.
  test('a limit is unset with null, leaving the other limit', async () => {
    const { patch, detail } = world()
    await patch(DEMO_CAMPAIGNS.acme, { limits: { maxReferralsPerDay: 5 } })
    const answer = await patch(DEMO_CAMPAIGNS.acme, { limits: { maxReferralsPerUser: null } })
    expect(answer.status).toBe(200)
    expect((await detail(DEMO_CAMPAIGNS.acme)).limits).toEqual({
      maxReferralsPerUser: null,
      maxReferralsPerDay: 5,
    })
  })

  test('name, description, attributionWindow and referredReward are updatable; other fields stay', async () => {
    const { patch, detail } = world()
    const before = await detail(DEMO_CAMPAIGNS.acme)
    const answer = await patch(DEMO_CAMPAIGNS.acme, {
      name: 'Renamed',
      description: '',
      attributionWindow: '90d',
      referredReward: { amount: 12 },
    })
    expect(answer.status).toBe(200)
    const after = await detail(DEMO_CAMPAIGNS.acme)
    expect(after).toEqual({
      ...before,
      name: 'Renamed',
      description: '',
      attributionWindow: '90d',
      referredReward: { type: 'credit', amount: 12, currency: 'USD', promotionCode: 'FRIEND10' },
      updatedAt: after.updatedAt,
    })
  })

  test.each(
    (
      [
        ['referrerReward.amount', -5],
        ['referrerReward.amount', '25'],
        ['referrerReward.currency', 'eu'],
        ['referredReward.type', 'cash'],
        ['referredReward.amount', 1_000_001],
        ['limits.maxReferralsPerDay', 0],
        ['limits.maxReferralsPerUser', 1.5],
        ['attributionWindow', '366d'],
        ['attributionWindow', '2w'],
        ['name', ''],
        ['name', 'x'.repeat(201)],
        ['description', 'x'.repeat(2001)],
        ['status', 'deleted'],
      ] as Array<[string, unknown]>
    ).map(([path, value]): [string, string, unknown] => [path, show(value), value]),
  )(
    '%s = %s is 400 parameter_invalid naming it, and nothing changes',
    async (path, _shown, value) => {
      const { patch, detail, clock } = world()
      const before = await detail(DEMO_CAMPAIGNS.acme)
      clock.advance(MINUTE)
      expectError(
        await patch(DEMO_CAMPAIGNS.acme, withPath({}, path, value)),
        400,
        'parameter_invalid',
        path,
      )
      expect(await detail(DEMO_CAMPAIGNS.acme)).toEqual(before)
    },
  )

  test('a patch with one bad field changes nothing, not even its good fields', async () => {
    const { patch, detail, clock } = world()
    const before = await detail(DEMO_CAMPAIGNS.acme)
    clock.advance(MINUTE)
    const answer = await patch(DEMO_CAMPAIGNS.acme, {
      name: 'Renamed',
      status: 'paused',
      referrerReward: { amount: -1 },
    })
    expectError(answer, 400, 'parameter_invalid', 'referrerReward.amount')
    expect(await detail(DEMO_CAMPAIGNS.acme)).toEqual(before)
  })

  test.each([
    ['foo', { foo: 1 }],
    ['referrerReward.foo', { referrerReward: { foo: 1 } }],
    ['limits.foo', { limits: { foo: 1 } }],
  ])('an unknown field %s is 400 parameter_unknown', async (param, body) => {
    const { patch, detail } = world()
    const before = await detail(DEMO_CAMPAIGNS.acme)
    expectError(await patch(DEMO_CAMPAIGNS.acme, body), 400, 'parameter_unknown', param)
    expect(await detail(DEMO_CAMPAIGNS.acme)).toEqual(before)
  })

  test.each<[string, unknown]>([
    ['id', 'camp_AAAAAAAAAAAAAAAAAAAA'],
    ['stats', { totalClicks: 1000 }],
    ['createdAt', '2020-01-01T00:00:00.000Z'],
    ['updatedAt', '2030-01-01T00:00:00.000Z'],
    ['rewardTrigger', 'purchase'],
    ['rewardTrigger', 'signup'],
  ])('%s (%j) is 400 parameter_not_updatable, and nothing changes', async (field, value) => {
    const { patch, detail, clock } = world()
    const before = await detail(DEMO_CAMPAIGNS.acme)
    clock.advance(MINUTE)
    const answer = await patch(DEMO_CAMPAIGNS.acme, { name: 'Renamed', [field]: value })
    expectError(answer, 400, 'parameter_not_updatable', field)
    expect(await detail(DEMO_CAMPAIGNS.acme)).toEqual(before)
  })

  test('updatedAt moves forward on each accepted change; createdAt never does', async () => {
    const { patch, detail, clock, startedAt } = world()
    clock.advance(MINUTE)
    const first = await patch(DEMO_CAMPAIGNS.acme, { name: 'One' })
    expect(first.status).toBe(200)
    expect(first.body.updatedAt).toBe(new Date(clock.now()).toISOString())
    expect(first.body.updatedAt).toMatch(ISO_WITH_MS)
    let shown = await detail(DEMO_CAMPAIGNS.acme)
    expect(shown.updatedAt).toBe(first.body.updatedAt)
    expect(shown.createdAt).toBe(startedAt)

    clock.advance(5 * SECOND)
    const second = await patch(DEMO_CAMPAIGNS.acme, { referrerReward: { amount: 11 } })
    expect(second.body.updatedAt).toBe(new Date(clock.now()).toISOString())
    shown = await detail(DEMO_CAMPAIGNS.acme)
    expect(shown.updatedAt).toBe(second.body.updatedAt)
    expect(shown.createdAt).toBe(startedAt)
  })

  test('updatedAt moves forward even for two changes in the same millisecond', async () => {
    const { patch, clock } = world()
    clock.advance(MINUTE)
    const first = await patch(DEMO_CAMPAIGNS.acme, { name: 'One' })
    const second = await patch(DEMO_CAMPAIGNS.acme, { name: 'Two' })
    expect(Date.parse(second.body.updatedAt)).toBeGreaterThan(Date.parse(first.body.updatedAt))
  })

  test('updatedAt stays when an accepted patch changes nothing', async () => {
    const { patch, detail, clock, startedAt } = world()
    const noOps: unknown[] = [
      {},
      { name: 'Acme friends & family' },
      { status: 'active' },
      { referrerReward: { amount: 10 } },
      { referrerReward: { currency: 'USD', type: 'credit' } },
      { limits: { maxReferralsPerUser: 50, maxReferralsPerDay: null } },
      { attributionWindow: '30d' },
    ]
    for (const body of noOps) {
      clock.advance(MINUTE)
      const answer = await patch(DEMO_CAMPAIGNS.acme, body)
      expect(answer.status, JSON.stringify(body)).toBe(200)
      expect(answer.body.updatedAt, JSON.stringify(body)).toBe(startedAt)
      expect((await detail(DEMO_CAMPAIGNS.acme)).updatedAt).toBe(startedAt)
    }
  })

  test('the answer is id, updatedAt and the changed fields', async () => {
    const { patch, clock } = world()
    clock.advance(MINUTE)
    const paused = await patch(DEMO_CAMPAIGNS.acme, { status: 'paused' })
    expect(paused.body).toEqual({
      id: DEMO_CAMPAIGNS.acme,
      updatedAt: new Date(clock.now()).toISOString(),
      status: 'paused',
    })

    clock.advance(MINUTE)
    const reward = await patch(DEMO_CAMPAIGNS.acme, { referrerReward: { amount: 25 } })
    expect(Object.keys(reward.body).sort()).toEqual(['id', 'referrerReward', 'updatedAt'])
    expect(reward.body).toMatchObject({ id: DEMO_CAMPAIGNS.acme, referrerReward: { amount: 25 } })

    clock.advance(MINUTE)
    const two = await patch(DEMO_CAMPAIGNS.acme, { name: 'N', description: 'D' })
    expect(two.body).toEqual({
      id: DEMO_CAMPAIGNS.acme,
      updatedAt: new Date(clock.now()).toISOString(),
      name: 'N',
      description: 'D',
    })
  })

  test.each(['camp_AAAAAAAAAAAAAAAAAAAA', DEMO_CAMPAIGNS.globex])(
    'patching an id outside the caller’s org and mode (%s) is 404',
    async (id) => {
      const { patch } = world()
      expectError(await patch(id, { name: 'x' }), 404, 'resource_missing')
    },
  )
})
