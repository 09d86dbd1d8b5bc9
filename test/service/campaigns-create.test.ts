// Contract tests for POST /v1/campaigns: the answer, required fields, validation that creates
// nothing, boundaries, defaults and unknown fields; the seed's interface plus CONTRACT.md's
// decisions.

import { describe, expect, test } from 'vitest'
import type { Campaign } from '../../demo/service/schemas.ts'
import {
  expectError,
  ISO_WITH_MS,
  minimalBody,
  SK,
  show,
  validBody,
  withPath,
  world,
} from './campaign-world.ts'
import { errorOf } from './helpers.ts'

const CAMPAIGN_ID = /^camp_[A-Za-z0-9_-]{16,}$/

describe('POST /v1/campaigns', () => {
  test('answers 201 with a camp_ id, the name, status active and a millisecond UTC createdAt', async () => {
    const { call, clock, detail } = world()
    clock.advance(1234)
    const answer = await call<Campaign>('POST', '/v1/campaigns', { key: SK, body: validBody() })
    expect(answer.status).toBe(201)
    expect(answer.body.id).toMatch(CAMPAIGN_ID)
    expect(answer.body.name).toBe('Spring referral push')
    expect(answer.body.status).toBe('active')
    expect(answer.body.createdAt).toMatch(ISO_WITH_MS)
    expect(answer.body.createdAt).toBe(new Date(clock.now()).toISOString())
    // The seed's field table: stats are detail only; the create response has these four.
    expect(Object.keys(answer.body).sort()).toEqual(['createdAt', 'id', 'name', 'status'])

    const shown = await detail(answer.body.id)
    expect(shown).toMatchObject({ ...validBody(), status: 'active' })
    expect(shown.updatedAt).toMatch(ISO_WITH_MS)

    const second = await call<Campaign>('POST', '/v1/campaigns', { key: SK, body: validBody() })
    expect(second.body.id).toMatch(CAMPAIGN_ID)
    expect(second.body.id).not.toBe(answer.body.id)
  })

  test.each([
    'name',
    'rewardTrigger',
    'referrerReward',
    'referredReward',
    'referrerReward.type',
    'referrerReward.amount',
    'referredReward.type',
    'referredReward.amount',
  ])('a missing %s is 400 parameter_missing naming it, and nothing is created', async (path) => {
    const { call, count } = world()
    const body = withPath(validBody(), path)
    expectError(
      await call('POST', '/v1/campaigns', { key: SK, body }),
      400,
      'parameter_missing',
      path,
    )
    expect(await count()).toBe(1)
  })

  test.each(
    (
      [
        ['name', ''],
        ['name', 'x'.repeat(201)],
        ['name', 42],
        ['name', null],
        ['description', 'x'.repeat(2001)],
        ['description', 7],
        ['rewardTrigger', 'PURCHASE'],
        ['rewardTrigger', 'SIGNUP'],
        ['rewardTrigger', 'first_purchase'],
        ['referrerReward', 'ten'],
        ['referrerReward.type', 'cash'],
        ['referrerReward.amount', -1],
        ['referrerReward.amount', 1_000_001],
        ['referrerReward.amount', '10'],
        ['referrerReward.amount', null],
        ['referrerReward.currency', 'usd'],
        ['referrerReward.currency', 'US'],
        ['referrerReward.currency', 'USDX'],
        ['referrerReward.currency', 840],
        ['referredReward.amount', -0.01],
        ['referredReward.currency', 'eur'],
        ['limits', 'many'],
        ['limits.maxReferralsPerUser', 0],
        ['limits.maxReferralsPerUser', -3],
        ['limits.maxReferralsPerUser', 1.5],
        ['limits.maxReferralsPerUser', '5'],
        ['limits.maxReferralsPerDay', 0],
        ['limits.maxReferralsPerDay', 2.5],
        ['attributionWindow', '366d'],
        ['attributionWindow', '0d'],
        ['attributionWindow', '30'],
        ['attributionWindow', '7h'],
        ['attributionWindow', '1w'],
        ['attributionWindow', '07d'],
        ['attributionWindow', ' 7d'],
        ['attributionWindow', ''],
        ['attributionWindow', 30],
      ] as Array<[string, unknown]>
    ).map(([path, value]): [string, string, unknown] => [path, show(value), value]),
  )(
    '%s = %s is 400 parameter_invalid naming it, and nothing is created',
    async (path, _shown, value) => {
      const { call, count } = world()
      const body = withPath(validBody(), path, value)
      expectError(
        await call('POST', '/v1/campaigns', { key: SK, body }),
        400,
        'parameter_invalid',
        path,
      )
      expect(await count()).toBe(1)
    },
  )

  test('accepts the boundaries: names of 1 and 200 chars, 2,000-char description, amounts 0 and 1,000,000, windows 1d and 365d', async () => {
    const { create, detail } = world()
    const cases: Record<string, unknown>[] = [
      { ...validBody(), name: 'x', attributionWindow: '1d' },
      { ...validBody(), name: 'y'.repeat(200), description: 'd'.repeat(2000) },
      {
        ...validBody(),
        referrerReward: { type: 'credit', amount: 0 },
        referredReward: { type: 'credit', amount: 1_000_000, currency: 'JPY' },
        attributionWindow: '365d',
        limits: { maxReferralsPerUser: 1, maxReferralsPerDay: 1 },
      },
      { ...validBody(), referrerReward: { type: 'credit', amount: 12.5 } },
    ]
    for (const body of cases) {
      const made = await create(body)
      const shown = await detail(made.id)
      expect(shown).toMatchObject(
        Object.fromEntries(
          Object.entries(body).filter(([k]) => k !== 'referrerReward' && k !== 'referredReward'),
        ),
      )
      for (const side of ['referrerReward', 'referredReward'] as const) {
        expect(shown[side]).toMatchObject(body[side] as object)
      }
    }
  })

  test('currency defaults to USD on each reward; a given currency is kept', async () => {
    const { create, detail } = world()
    const made = await create({
      ...minimalBody(),
      referrerReward: { type: 'credit', amount: 3 },
      referredReward: { type: 'credit', amount: 4, currency: 'EUR' },
    })
    const shown = await detail(made.id)
    expect(shown.referrerReward).toEqual({ type: 'credit', amount: 3, currency: 'USD' })
    expect(shown.referredReward).toEqual({ type: 'credit', amount: 4, currency: 'EUR' })
  })

  test('attributionWindow defaults to 30d', async () => {
    const { create, detail } = world()
    const made = await create(minimalBody())
    expect((await detail(made.id)).attributionWindow).toBe('30d')
  })

  test('limits.maxReferralsPerDay is accepted on create and returned in the detail', async () => {
    const { create, detail } = world()
    const made = await create({ ...minimalBody(), limits: { maxReferralsPerDay: 4 } })
    expect((await detail(made.id)).limits).toEqual({
      maxReferralsPerUser: null,
      maxReferralsPerDay: 4,
    })
  })

  test.each([
    ['foo', { ...validBody(), foo: 1 }],
    ['status', { ...validBody(), status: 'paused' }],
    ['stats', { ...validBody(), stats: { totalClicks: 5 } }],
    ['id', { ...validBody(), id: 'camp_mineMineMineMine1' }],
    ['referrerReward.foo', withPath(validBody(), 'referrerReward.foo', 1)],
    ['limits.foo', withPath(validBody(), 'limits.foo', 1)],
  ])(
    'an unknown field %s is 400 parameter_unknown, and nothing is created',
    async (param, body) => {
      const { call, count } = world()
      expectError(
        await call('POST', '/v1/campaigns', { key: SK, body }),
        400,
        'parameter_unknown',
        param,
      )
      expect(await count()).toBe(1)
    },
  )

  test.each(['[]', 'null', '"campaign"', '42'])(
    'a JSON body that is not an object (%s) is 400',
    async (raw) => {
      const { call, count } = world()
      const answer = await call('POST', '/v1/campaigns', { key: SK, body: raw })
      expect(answer.status).toBe(400)
      expect(errorOf(answer).type).toBe('invalid_request_error')
      expect(await count()).toBe(1)
    },
  )
})
