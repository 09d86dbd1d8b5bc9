// Contract tests for a campaign's status (active, paused, archived) and what public keys see of
// campaigns: the seed's interface plus CONTRACT.md's decisions.

import { describe, expect, test } from 'vitest'
import type { Campaign, PublicCampaign } from '../../demo/service/schemas.ts'
import { expectError, PK, validBody, world } from './campaign-world.ts'
import { DEMO_CAMPAIGNS, DEMO_KEYS, errorOf, MINUTE, PUBLIC_FIELDS } from './helpers.ts'

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
