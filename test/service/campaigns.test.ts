// Contract tests for /v1/campaigns: the seed's interface plus CONTRACT.md's decisions.

import { describe, expect, test } from 'vitest'
import type { Campaign, PublicCampaign } from '../../demo/service/schemas.ts'
import {
  type Answer,
  DEMO_CAMPAIGNS,
  DEMO_KEYS,
  errorOf,
  MINUTE,
  PUBLIC_FIELDS,
  SECOND,
  setup,
} from './helpers.ts'

const SK = DEMO_KEYS.acme.skTest
const PK = DEMO_KEYS.acme.pkTest

/** The fields of a list item for a secret key, as the seed lists them. */
const SEED_LIST_FIELDS = [
  'createdAt',
  'id',
  'name',
  'referredReward',
  'referrerReward',
  'rewardTrigger',
  'status',
]

const DETAIL_FIELDS = [
  'attributionWindow',
  'createdAt',
  'description',
  'id',
  'limits',
  'name',
  'referredReward',
  'referrerReward',
  'requireUserToken',
  'rewardTrigger',
  'stats',
  'status',
  'updatedAt',
]

const ISO_WITH_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const CAMPAIGN_ID = /^camp_[A-Za-z0-9_-]{16,}$/

type ListItem = Pick<
  Campaign,
  'id' | 'name' | 'status' | 'rewardTrigger' | 'referrerReward' | 'referredReward' | 'createdAt'
>
interface CampaignList<T = ListItem> {
  data: T[]
  total: number
  hasMore: boolean
}
type PatchAnswer = Partial<Campaign> & { id: string; updatedAt: string }

const validBody = (): Record<string, unknown> => ({
  name: 'Spring referral push',
  description: 'Give 5, get 5.',
  rewardTrigger: 'signup',
  referrerReward: { type: 'credit', amount: 5, currency: 'USD' },
  referredReward: { type: 'credit', amount: 5, currency: 'USD' },
  limits: { maxReferralsPerUser: 10, maxReferralsPerDay: 3 },
  attributionWindow: '14d',
})

/** The minimal create body: only the fields CONTRACT.md makes required. */
const minimalBody = (): Record<string, unknown> => ({
  name: 'Minimal',
  rewardTrigger: 'signup',
  referrerReward: { type: 'credit', amount: 1 },
  referredReward: { type: 'credit', amount: 2 },
})

/** A copy of `body` with the value at a dotted path replaced, or removed when `value` is omitted. */
function withPath(
  body: Record<string, unknown>,
  path: string,
  ...value: [unknown] | []
): Record<string, unknown> {
  const copy = structuredClone(body)
  const steps = path.split('.')
  const last = steps.pop() as string
  let target: Record<string, unknown> = copy
  for (const step of steps) {
    const next = target[step]
    if (typeof next !== 'object' || next === null) {
      target[step] = {}
    }
    target = target[step] as Record<string, unknown>
  }
  if (value.length === 0) delete target[last]
  else target[last] = value[0]
  return copy
}

/** A short label for a test name: long strings by their length. */
const show = (value: unknown) =>
  typeof value === 'string' && value.length > 20 ? `${value.length} chars` : JSON.stringify(value)

function expectError(answer: Answer, status: number, code: string, param?: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  const error = errorOf(answer)
  expect(error.code).toBe(code)
  if (param !== undefined) expect(error.param).toBe(param)
  return error
}

function world(options: Parameters<typeof setup>[0] = {}) {
  const ctx = setup(options)
  const { call } = ctx
  const startedAt = new Date(ctx.clock.now()).toISOString()

  const create = async (body: unknown = validBody(), key: string = SK) => {
    const answer = await call<Campaign>('POST', '/v1/campaigns', { key, body })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    return answer.body
  }
  const detail = async (id: string, key: string = SK) => {
    const answer = await call<Campaign>('GET', `/v1/campaigns/${id}`, { key })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    return answer.body
  }
  const patch = (id: string, body: unknown, key: string = SK) =>
    call<PatchAnswer>('PATCH', `/v1/campaigns/${id}`, { key, body })
  const list = <T = ListItem>(query = '', key: string = SK) =>
    call<CampaignList<T>>('GET', `/v1/campaigns${query}`, { key })
  const setStatus = async (id: string, status: string) => {
    const answer = await patch(id, { status })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  }
  const count = async (key: string = SK) => {
    const answer = await list('?limit=100', key)
    expect(answer.status).toBe(200)
    return answer.body.total
  }
  return { ...ctx, startedAt, create, detail, patch, list, setStatus, count }
}

describe('GET /v1/campaigns', () => {
  test('a secret key lists its org and mode, with the seed list fields and no detail-only stats', async () => {
    const { list } = world()
    const answer = await list()
    expect(answer.status).toBe(200)
    expect(answer.body.total).toBe(1)
    expect(answer.body.hasMore).toBe(false)
    const [item] = answer.body.data
    expect(item?.id).toBe(DEMO_CAMPAIGNS.acme)
    for (const field of SEED_LIST_FIELDS) expect(item).toHaveProperty(field)
    expect(item).not.toHaveProperty('stats')
    expect(item).toMatchObject({
      name: 'Acme friends & family',
      status: 'active',
      rewardTrigger: 'signup',
      referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
      referredReward: { type: 'credit', amount: 10, currency: 'USD' },
    })
  })

  test('filters by each status, and total counts the campaigns matching the filter', async () => {
    const { create, setStatus, list } = world()
    const made: string[] = []
    for (let i = 0; i < 5; i++) made.push((await create({ ...validBody(), name: `c${i}` })).id)
    const [c0, c1, c2, c3, c4] = made as [string, string, string, string, string]
    await setStatus(c0, 'paused')
    await setStatus(c1, 'paused')
    await setStatus(c2, 'archived')

    const expected: Record<string, string[]> = {
      active: [c4, c3, DEMO_CAMPAIGNS.acme],
      paused: [c1, c0],
      archived: [c2],
    }
    for (const [status, ids] of Object.entries(expected)) {
      const answer = await list(`?status=${status}`)
      expect(answer.status).toBe(200)
      expect(answer.body.data.map((c) => c.id)).toEqual(ids)
      expect(answer.body.data.every((c) => c.status === status)).toBe(true)
      expect(answer.body.total).toBe(ids.length)
      expect(answer.body.hasMore).toBe(false)
    }
    const all = await list()
    expect(all.body.total).toBe(6)
    expect(new Set(all.body.data.map((c) => c.status))).toEqual(
      new Set(['active', 'paused', 'archived']),
    )
  })

  test('total is the number of matches, not the page length', async () => {
    const { create, setStatus, list } = world()
    for (let i = 0; i < 4; i++) await create()
    const paused = await create()
    await setStatus(paused.id, 'paused')

    const page = await list('?limit=2')
    expect(page.body.data).toHaveLength(2)
    expect(page.body.total).toBe(6)
    expect(page.body.hasMore).toBe(true)

    const activePage = await list('?status=active&limit=1')
    expect(activePage.body.data).toHaveLength(1)
    expect(activePage.body.total).toBe(5)
    expect(activePage.body.hasMore).toBe(true)
  })

  test('lists newest first', async () => {
    const { create, list, clock } = world()
    clock.advance(MINUTE)
    const a = await create({ ...validBody(), name: 'A' })
    clock.advance(MINUTE)
    const b = await create({ ...validBody(), name: 'B' })
    clock.advance(MINUTE)
    const c = await create({ ...validBody(), name: 'C' })
    const answer = await list()
    expect(answer.body.data.map((x) => x.id)).toEqual([c.id, b.id, a.id, DEMO_CAMPAIGNS.acme])
    const times = answer.body.data.map((x) => Date.parse(x.createdAt))
    expect([...times].sort((x, y) => y - x)).toEqual(times)
  })

  test('limit defaults to 20', async () => {
    const { create, list } = world()
    for (let i = 0; i < 24; i++) await create()
    const answer = await list()
    expect(answer.status).toBe(200)
    expect(answer.body.data).toHaveLength(20)
    expect(answer.body.total).toBe(25)
    expect(answer.body.hasMore).toBe(true)
  })

  test('limit accepts 1 and the maximum 100', async () => {
    const { create, list } = world()
    for (let i = 0; i < 104; i++) await create()
    const hundred = await list('?limit=100')
    expect(hundred.status).toBe(200)
    expect(hundred.body.data).toHaveLength(100)
    expect(hundred.body.total).toBe(105)
    expect(hundred.body.hasMore).toBe(true)
    const one = await list('?limit=1')
    expect(one.body.data).toHaveLength(1)
    expect(one.body.hasMore).toBe(true)
  })

  test.each(['0', '101', 'abc', '1.5', '-1', '1000'])(
    'limit=%s is refused with 400 parameter_invalid',
    async (limit) => {
      const { list } = world()
      expectError(await list(`?limit=${limit}`), 400, 'parameter_invalid', 'limit')
    },
  )

  test('an unknown status filter is refused with 400 parameter_invalid', async () => {
    const { list } = world()
    expectError(await list('?status=deleted'), 400, 'parameter_invalid', 'status')
  })

  test('startingAfter and hasMore walk every campaign exactly once, newest first', async () => {
    const { create, list } = world()
    for (let i = 0; i < 24; i++) await create({ ...validBody(), name: `n${i}` })
    const everything = (await list('?limit=100')).body.data.map((c) => c.id)
    expect(everything).toHaveLength(25)

    const walked: string[] = []
    const pageSizes: number[] = []
    let cursor: string | undefined
    for (let guard = 0; guard < 10; guard++) {
      const answer = await list(`?limit=10${cursor ? `&startingAfter=${cursor}` : ''}`)
      expect(answer.status).toBe(200)
      expect(answer.body.total).toBe(25)
      pageSizes.push(answer.body.data.length)
      walked.push(...answer.body.data.map((c) => c.id))
      if (!answer.body.hasMore) break
      cursor = answer.body.data.at(-1)?.id
    }
    expect(pageSizes).toEqual([10, 10, 5])
    expect(walked).toEqual(everything)
  })

  test('the cursor walks a filtered list too', async () => {
    const { create, setStatus, list } = world()
    const paused: string[] = []
    for (let i = 0; i < 10; i++) {
      const made = await create({ ...validBody(), name: `m${i}` })
      if (i % 2 === 0) {
        await setStatus(made.id, 'paused')
        paused.unshift(made.id)
      }
    }
    const walked: string[] = []
    let cursor: string | undefined
    for (let guard = 0; guard < 10; guard++) {
      const answer = await list(`?status=paused&limit=2${cursor ? `&startingAfter=${cursor}` : ''}`)
      expect(answer.status).toBe(200)
      expect(answer.body.total).toBe(5)
      walked.push(...answer.body.data.map((c) => c.id))
      if (!answer.body.hasMore) break
      cursor = answer.body.data.at(-1)?.id
    }
    expect(walked).toEqual(paused)
  })

  test('after the last campaign the page is empty and hasMore is false', async () => {
    const { list } = world()
    const answer = await list(`?startingAfter=${DEMO_CAMPAIGNS.acme}`)
    expect(answer.status).toBe(200)
    expect(answer.body.data).toEqual([])
    expect(answer.body.hasMore).toBe(false)
    expect(answer.body.total).toBe(1)
  })

  // The contract is silent on an unknown cursor; a demanding user wants a clear 400, not a
  // silently empty (or restarted) page.
  test.each([
    ['an unknown id', 'camp_AAAAAAAAAAAAAAAAAAAA'],
    ["another org's id", DEMO_CAMPAIGNS.globex],
    ['a malformed id', 'nope'],
  ])('startingAfter naming %s is refused with 400', async (_what, id) => {
    const { list } = world()
    expectError(await list(`?startingAfter=${id}`), 400, 'parameter_invalid', 'startingAfter')
  })
})

describe('GET /v1/campaigns/:id', () => {
  test('the detail carries every field, limits with null when unset, stats and updatedAt', async () => {
    const { detail, startedAt } = world()
    const acme = await detail(DEMO_CAMPAIGNS.acme)
    expect(Object.keys(acme).sort()).toEqual(DETAIL_FIELDS)
    expect(acme).toEqual({
      id: DEMO_CAMPAIGNS.acme,
      name: 'Acme friends & family',
      description: 'Give $10, get $10 in Acme credit.',
      status: 'active',
      rewardTrigger: 'signup',
      referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
      referredReward: { type: 'credit', amount: 10, currency: 'USD' },
      limits: { maxReferralsPerUser: 50, maxReferralsPerDay: null },
      attributionWindow: '30d',
      requireUserToken: false,
      stats: { totalClicks: 0, totalConversions: 0, totalRewardsIssued: 0 },
      createdAt: startedAt,
      updatedAt: startedAt,
    })
  })

  test('a campaign created with only the required fields shows every default', async () => {
    const { create, detail, clock } = world()
    clock.advance(3 * MINUTE + 7)
    const at = new Date(clock.now()).toISOString()
    const made = await create(minimalBody())
    const shown = await detail(made.id)
    expect(Object.keys(shown).sort()).toEqual(DETAIL_FIELDS)
    expect(shown).toEqual({
      id: made.id,
      name: 'Minimal',
      description: '',
      status: 'active',
      rewardTrigger: 'signup',
      referrerReward: { type: 'credit', amount: 1, currency: 'USD' },
      referredReward: { type: 'credit', amount: 2, currency: 'USD' },
      limits: { maxReferralsPerUser: null, maxReferralsPerDay: null },
      attributionWindow: '30d',
      requireUserToken: false,
      stats: { totalClicks: 0, totalConversions: 0, totalRewardsIssued: 0 },
      createdAt: at,
      updatedAt: at,
    })
  })

  test.each(['camp_AAAAAAAAAAAAAAAAAAAA', 'nope'])(
    'an unknown id (%s) is 404 resource_missing',
    async (id) => {
      const { call } = world()
      expectError(await call('GET', `/v1/campaigns/${id}`, { key: SK }), 404, 'resource_missing')
    },
  )
})

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
    expect(shown.referredReward).toEqual({ type: 'credit', amount: 10, currency: 'GBP' })
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
      referredReward: { type: 'credit', amount: 12, currency: 'USD' },
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

describe('status transitions', () => {
  test('active -> paused is accepted and moves updatedAt', async () => {
    const { patch, detail, clock, startedAt } = world()
    clock.advance(MINUTE)
    expect((await patch(DEMO_CAMPAIGNS.acme, { status: 'paused' })).status).toBe(200)
    const shown = await detail(DEMO_CAMPAIGNS.acme)
    expect(shown.status).toBe('paused')
    expect(shown.updatedAt).not.toBe(startedAt)
    expect(Date.parse(shown.updatedAt)).toBe(clock.now())
  })

  test('paused -> active is accepted', async () => {
    const { patch, detail } = world()
    await patch(DEMO_CAMPAIGNS.acme, { status: 'paused' })
    expect((await patch(DEMO_CAMPAIGNS.acme, { status: 'active' })).status).toBe(200)
    expect((await detail(DEMO_CAMPAIGNS.acme)).status).toBe('active')
  })

  test.each(['active', 'paused'])('%s -> archived is accepted', async (from) => {
    const { patch, detail, create } = world()
    const made = await create()
    if (from === 'paused') await patch(made.id, { status: 'paused' })
    const answer = await patch(made.id, { status: 'archived' })
    expect(answer.status).toBe(200)
    expect(answer.body.status).toBe('archived')
    expect((await detail(made.id)).status).toBe('archived')
  })

  test.each(['active', 'paused'])(
    'archived is final: archived -> %s is 409 invalid_state_transition',
    async (to) => {
      const { patch, detail, create, clock } = world()
      const made = await create()
      await patch(made.id, { status: 'archived' })
      const before = await detail(made.id)
      clock.advance(MINUTE)
      const error = expectError(
        await patch(made.id, { status: to }),
        409,
        'invalid_state_transition',
      )
      expect(error.type).toBe('invalid_request_error')
      expect(await detail(made.id)).toEqual(before)
    },
  )

  test('a refused transition also refuses the other fields of the patch', async () => {
    const { patch, detail, create, clock } = world()
    const made = await create()
    await patch(made.id, { status: 'archived' })
    const before = await detail(made.id)
    clock.advance(MINUTE)
    expectError(
      await patch(made.id, { status: 'active', name: 'Back from the dead' }),
      409,
      'invalid_state_transition',
    )
    expect(await detail(made.id)).toEqual(before)
  })

  test.each(['active', 'paused', 'archived'])(
    'patching to the current status (%s) is a no-op success',
    async (status) => {
      const { patch, detail, create, clock } = world()
      const made = await create()
      if (status !== 'active') await patch(made.id, { status })
      const before = await detail(made.id)
      clock.advance(MINUTE)
      const answer = await patch(made.id, { status })
      expect(answer.status).toBe(200)
      expect(answer.body.updatedAt).toBe(before.updatedAt)
      expect(await detail(made.id)).toEqual(before)
    },
  )
})

describe('public keys', () => {
  test('a pk list shows active campaigns only, each with exactly the public fields', async () => {
    const { create, setStatus, list } = world()
    const active = await create({ ...validBody(), name: 'Live one' })
    const paused = await create()
    const archived = await create()
    await setStatus(paused.id, 'paused')
    await setStatus(archived.id, 'archived')

    const answer = await list<PublicCampaign>('', PK)
    expect(answer.status).toBe(200)
    expect(answer.body.data.map((c) => c.id)).toEqual([active.id, DEMO_CAMPAIGNS.acme])
    expect(answer.body.total).toBe(2)
    expect(answer.body.hasMore).toBe(false)
    for (const item of answer.body.data) expect(Object.keys(item).sort()).toEqual(PUBLIC_FIELDS)
    expect(answer.body.data[0]).toEqual({
      id: active.id,
      name: 'Live one',
      status: 'active',
      rewardTrigger: 'signup',
      referrerReward: { type: 'credit', amount: 5, currency: 'USD' },
      referredReward: { type: 'credit', amount: 5, currency: 'USD' },
      attributionWindow: '14d',
      createdAt: active.createdAt,
    })

    const filtered = await list<PublicCampaign>('?status=active', PK)
    expect(filtered.status).toBe(200)
    expect(filtered.body.data.map((c) => c.id)).toEqual([active.id, DEMO_CAMPAIGNS.acme])
  })

  test.each(['paused', 'archived'])(
    'a pk list filtered by %s is 403 secret_key_required',
    async (status) => {
      const { list } = world()
      const error = expectError(await list(`?status=${status}`, PK), 403, 'secret_key_required')
      expect(error.type).toBe('permission_error')
    },
  )

  test('a pk detail of an active campaign is exactly the public view', async () => {
    const { call, detail } = world()
    const full = await detail(DEMO_CAMPAIGNS.acme)
    const answer = await call<PublicCampaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: PK,
    })
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body).sort()).toEqual(PUBLIC_FIELDS)
    expect(answer.body).toEqual(
      Object.fromEntries(PUBLIC_FIELDS.map((field) => [field, full[field as keyof Campaign]])),
    )
  })

  test.each(['paused', 'archived'])(
    'a pk detail of a %s campaign is 404, indistinguishable from an unknown id',
    async (status) => {
      const { call, setStatus } = world()
      await setStatus(DEMO_CAMPAIGNS.acme, status)
      const hidden = await call('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, { key: PK })
      expectError(hidden, 404, 'resource_missing')
      const unknown = await call('GET', '/v1/campaigns/camp_AAAAAAAAAAAAAAAAAAAA', { key: PK })
      expect(errorOf(hidden)).toEqual(errorOf(unknown))
    },
  )

  test('a paused campaign shows again to pk keys once resumed', async () => {
    const { call, setStatus } = world()
    await setStatus(DEMO_CAMPAIGNS.acme, 'paused')
    await setStatus(DEMO_CAMPAIGNS.acme, 'active')
    const answer = await call('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, { key: PK })
    expect(answer.status).toBe(200)
  })

  test('a pk key cannot create a campaign', async () => {
    const { call, count } = world()
    for (const key of [PK, DEMO_KEYS.acme.pkLive]) {
      const answer = await call('POST', '/v1/campaigns', { key, body: validBody() })
      const error = expectError(answer, 403, 'secret_key_required')
      expect(error.type).toBe('permission_error')
    }
    expect(await count()).toBe(1)
    expect(await count(DEMO_KEYS.acme.skLive)).toBe(0)
  })

  test('a pk key cannot patch a campaign', async () => {
    const { patch, detail } = world()
    const before = await detail(DEMO_CAMPAIGNS.acme)
    for (const body of [{ status: 'paused' }, { referrerReward: { amount: 999 } }]) {
      expectError(await patch(DEMO_CAMPAIGNS.acme, body, PK), 403, 'secret_key_required')
    }
    expect(await detail(DEMO_CAMPAIGNS.acme)).toEqual(before)
  })
})

describe('prototype pollution', () => {
  const REQUIRED =
    '"name":"Sneaky","rewardTrigger":"signup","referredReward":{"type":"credit","amount":1}'
  const REWARD = '"type":"credit","amount":1'

  const createBodies: Array<[string, string]> = [
    ['__proto__', `{${REQUIRED},"referrerReward":{${REWARD}},"__proto__":{"polluted":"yes"}}`],
    [
      'constructor',
      `{${REQUIRED},"referrerReward":{${REWARD}},"constructor":{"prototype":{"polluted":"yes"}}}`,
    ],
    ['prototype', `{${REQUIRED},"referrerReward":{${REWARD}},"prototype":{"polluted":"yes"}}`],
    [
      'referrerReward.__proto__',
      `{${REQUIRED},"referrerReward":{${REWARD},"__proto__":{"polluted":"yes"}}}`,
    ],
    [
      'referrerReward.constructor',
      `{${REQUIRED},"referrerReward":{${REWARD},"constructor":{"prototype":{"polluted":"yes"}}}}`,
    ],
    [
      'referrerReward.prototype',
      `{${REQUIRED},"referrerReward":{${REWARD},"prototype":{"polluted":"yes"}}}`,
    ],
    [
      'limits.__proto__',
      `{${REQUIRED},"referrerReward":{${REWARD}},"limits":{"__proto__":{"polluted":"yes"}}}`,
    ],
    [
      'limits.constructor',
      `{${REQUIRED},"referrerReward":{${REWARD}},"limits":{"constructor":{"prototype":{"polluted":"yes"}}}}`,
    ],
    [
      'limits.prototype',
      `{${REQUIRED},"referrerReward":{${REWARD}},"limits":{"prototype":{"polluted":"yes"}}}`,
    ],
  ]

  const patchBodies: Array<[string, string]> = [
    ['__proto__', '{"__proto__":{"polluted":"yes","status":"archived"}}'],
    ['constructor', '{"constructor":{"prototype":{"polluted":"yes"}}}'],
    ['prototype', '{"prototype":{"polluted":"yes"}}'],
    ['referrerReward.__proto__', '{"referrerReward":{"__proto__":{"amount":999}}}'],
    [
      'referrerReward.constructor',
      '{"referrerReward":{"constructor":{"prototype":{"polluted":"yes"}}}}',
    ],
    ['referrerReward.prototype', '{"referrerReward":{"prototype":{"amount":999}}}'],
    ['referredReward.__proto__', '{"referredReward":{"__proto__":{"currency":"EUR"}}}'],
    ['limits.__proto__', '{"limits":{"__proto__":{"maxReferralsPerUser":1}}}'],
    ['limits.constructor', '{"limits":{"constructor":{"prototype":{"polluted":"yes"}}}}'],
    ['limits.prototype', '{"limits":{"prototype":{"maxReferralsPerUser":1}}}'],
  ]

  const prototypeIsClean = (names: string[]) => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(names)
    const probe: Record<string, unknown> = {}
    expect(probe.polluted).toBeUndefined()
    expect(probe.amount).toBeUndefined()
    expect(probe.status).toBeUndefined()
    expect(probe.maxReferralsPerUser).toBeUndefined()
  }

  test.each(createBodies)(
    'create with %s is refused with 400 and creates nothing',
    async (param, raw) => {
      const names = Object.getOwnPropertyNames(Object.prototype).sort()
      const { call, count } = world()
      const answer = await call('POST', '/v1/campaigns', { key: SK, body: raw })
      expectError(answer, 400, 'parameter_unknown', param)
      prototypeIsClean(names)
      expect(await count()).toBe(1)
    },
  )

  test.each(patchBodies)(
    'patch with %s is refused with 400 and changes nothing',
    async (param, raw) => {
      const names = Object.getOwnPropertyNames(Object.prototype).sort()
      const { patch, detail, clock } = world()
      const before = await detail(DEMO_CAMPAIGNS.acme)
      clock.advance(MINUTE)
      expectError(await patch(DEMO_CAMPAIGNS.acme, raw), 400, 'parameter_unknown', param)
      prototypeIsClean(names)
      expect(await detail(DEMO_CAMPAIGNS.acme)).toEqual(before)
      // A fresh campaign built after the attempt carries no smuggled defaults either.
      const other = world()
      const fresh = await other.detail((await other.create(minimalBody())).id)
      expect(fresh.limits).toEqual({ maxReferralsPerUser: null, maxReferralsPerDay: null })
      expect(fresh.referrerReward).toEqual({ type: 'credit', amount: 1, currency: 'USD' })
    },
  )
})
