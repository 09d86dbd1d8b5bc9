// Contract tests for reading campaigns with a secret key: the list (fields, status filter, total,
// order, limit, the startingAfter cursor) and the detail (every field, defaults, unknown ids); the
// seed's interface plus CONTRACT.md's decisions.

import { describe, expect, test } from 'vitest'
import { expectError, minimalBody, SK, validBody, world } from './campaign-world.ts'
import { DEMO_CAMPAIGNS, MINUTE } from './helpers.ts'

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
      referredReward: { type: 'credit', amount: 10, currency: 'USD', promotionCode: 'FRIEND10' },
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
      referredReward: { type: 'credit', amount: 10, currency: 'USD', promotionCode: 'FRIEND10' },
      limits: { maxReferralsPerUser: 50, maxReferralsPerDay: null },
      attributionWindow: '30d',
      requireUserToken: false,
      stats: {
        totalClicks: 0,
        totalConversions: 0,
        totalRewardsIssued: 0,
        selfReferrals: 0,
        reversedConversions: 0,
      },
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
      stats: {
        totalClicks: 0,
        totalConversions: 0,
        totalRewardsIssued: 0,
        selfReferrals: 0,
        reversedConversions: 0,
      },
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
