// The referred friend's promotion code (extension, CONTRACT.md "Promotion code"): set on create or
// PATCH with a secret key, removed with null, shown wherever referredReward is (the secret key's
// detail and list, the public view and list, a PATCH's answer), and left out where there is none.

import { describe, expect, test } from 'vitest'
import { expectError, PK, SK, show, validBody, withPath, world } from './campaign-world.ts'
import { DEMO_CAMPAIGNS, MINUTE } from './helpers.ts'

type Listed = { id: string; referredReward: Record<string, unknown> }

/** referredReward as every reader sees it: secret detail and list, public detail and list. */
async function everyView(w: ReturnType<typeof world>, id: string) {
  const find = async (key?: string) => {
    const answer = await w.list<Listed>('?limit=100', key)
    expect(answer.status).toBe(200)
    return answer.body.data.find((campaign) => campaign.id === id)?.referredReward
  }
  return [
    (await w.detail(id)).referredReward,
    await find(),
    (await w.detail(id, PK)).referredReward,
    await find(PK),
  ]
}

const withCode = (promotionCode: unknown) =>
  withPath(validBody(), 'referredReward.promotionCode', promotionCode)

describe('referredReward.promotionCode', () => {
  test('set on create: in the detail, the list and the public view and list, beside the reward', async () => {
    const w = world()
    const made = await w.create(withCode('SPRING-25_x'))
    const reward = { type: 'credit', amount: 5, currency: 'USD', promotionCode: 'SPRING-25_x' }
    expect(await everyView(w, made.id)).toEqual([reward, reward, reward, reward])
  })

  test.each([
    ['without one', validBody()],
    ['with null', withCode(null)],
  ])('created %s: the key is left out everywhere', async (_what, body) => {
    const w = world()
    const made = await w.create(body)
    const reward = { type: 'credit', amount: 5, currency: 'USD' }
    expect(await everyView(w, made.id)).toEqual([reward, reward, reward, reward])
  })

  test.each(['F', 'x'.repeat(64), 'FRIEND10', 'a-b_C-9'])('%s is accepted', async (code) => {
    const { create, detail } = world()
    const made = await create(withCode(code))
    expect((await detail(made.id)).referredReward.promotionCode).toBe(code)
  })

  test('set by PATCH as a deep partial merge: amount and currency stay, the answer shows it', async () => {
    const { create, patch, detail, clock } = world()
    const made = await create()
    clock.advance(MINUTE)
    const answer = await patch(made.id, { referredReward: { promotionCode: 'FRIEND10' } })
    expect(answer.status).toBe(200)
    const reward = { type: 'credit', amount: 5, currency: 'USD', promotionCode: 'FRIEND10' }
    expect(answer.body.referredReward).toEqual(reward)
    const shown = await detail(made.id)
    expect(shown.referredReward).toEqual(reward)
    expect(shown.updatedAt).toBe(answer.body.updatedAt)
    expect(shown.updatedAt > made.createdAt).toBe(true)

    // Changing the amount keeps the code; another code replaces it.
    await patch(made.id, { referredReward: { amount: 7 } })
    await patch(made.id, { referredReward: { promotionCode: 'FRIEND20' } })
    expect((await detail(made.id)).referredReward).toEqual({
      ...reward,
      amount: 7,
      promotionCode: 'FRIEND20',
    })
  })

  test('null removes it everywhere; null again changes nothing, not even updatedAt', async () => {
    const w = world()
    const made = await w.create(withCode('FRIEND10'))
    w.clock.advance(MINUTE)
    const removed = await w.patch(made.id, { referredReward: { promotionCode: null } })
    expect(removed.status).toBe(200)
    const reward = { type: 'credit', amount: 5, currency: 'USD' }
    expect(removed.body.referredReward).toEqual(reward)
    expect(await everyView(w, made.id)).toEqual([reward, reward, reward, reward])

    const before = await w.detail(made.id)
    w.clock.advance(MINUTE)
    const again = await w.patch(made.id, { referredReward: { promotionCode: null } })
    expect(again.status).toBe(200)
    expect(await w.detail(made.id)).toEqual(before)
  })

  test.each(
    [
      '',
      'x'.repeat(65),
      'FRIEND 10',
      'FRÏEND',
      'a/b',
      'FRIEND10\n',
      10,
      true,
      {},
      ['FRIEND10'],
    ].map((value): [string, unknown] => [show(value), value]),
  )(
    '%s is 400 parameter_invalid naming referredReward.promotionCode, on create and PATCH; nothing changes',
    async (_shown, value) => {
      const { call, create, patch, detail, count, clock } = world()
      const campaigns = await count()
      const created = await call('POST', '/v1/campaigns', { key: SK, body: withCode(value) })
      expectError(created, 400, 'parameter_invalid', 'referredReward.promotionCode')
      expect(await count()).toBe(campaigns)

      const made = await create(withCode('FRIEND10'))
      const before = await detail(made.id)
      clock.advance(MINUTE)
      const patched = await patch(made.id, { referredReward: { promotionCode: value } })
      expectError(patched, 400, 'parameter_invalid', 'referredReward.promotionCode')
      expect(await detail(made.id)).toEqual(before)
    },
  )

  test('referrerReward.promotionCode is not a field: 400 parameter_unknown, on create and PATCH', async () => {
    const { call, patch } = world()
    const body = withPath(validBody(), 'referrerReward.promotionCode', 'FRIEND10')
    const created = await call('POST', '/v1/campaigns', { key: SK, body })
    expectError(created, 400, 'parameter_unknown', 'referrerReward.promotionCode')
    const patched = await patch(DEMO_CAMPAIGNS.acme, {
      referrerReward: { promotionCode: 'FRIEND10' },
    })
    expectError(patched, 400, 'parameter_unknown', 'referrerReward.promotionCode')
  })

  test('a public key cannot set it: 403 secret_key_required', async () => {
    const { patch, detail } = world()
    const before = await detail(DEMO_CAMPAIGNS.acme)
    const answer = await patch(
      DEMO_CAMPAIGNS.acme,
      { referredReward: { promotionCode: 'FREE' } },
      PK,
    )
    expectError(answer, 403, 'secret_key_required')
    expect(await detail(DEMO_CAMPAIGNS.acme)).toEqual(before)
  })

  test("the seeded QA campaign carries FRIEND10, in its public view too; globex's has none", async () => {
    const { detail } = world()
    const reward = { type: 'credit', amount: 10, currency: 'USD', promotionCode: 'FRIEND10' }
    expect((await detail(DEMO_CAMPAIGNS.acme)).referredReward).toEqual(reward)
    expect((await detail(DEMO_CAMPAIGNS.acme, PK)).referredReward).toEqual(reward)
    const globex = await detail(DEMO_CAMPAIGNS.globex, 'sk_test_globex')
    expect(globex.referredReward).not.toHaveProperty('promotionCode')
  })
})
