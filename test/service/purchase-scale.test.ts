// Purchases at scale (extension): what a purchase reads from the store does not grow with the
// referred buyers, orders and conversions already stored, nor with a user's earlier purchases
// (the store's indexes keep each check at constant cost). No timing: counts of records read.

import { describe, expect, it } from 'vitest'
import type { EventResult, LinkSummary } from '../../demo/service/schemas.ts'
import type { Store } from '../../demo/service/store.ts'
import { createCampaign, DEMO_KEYS, MINUTE, setup } from './helpers.ts'
import { ACME, countingStore, storeConversions } from './scale-support.ts'

const { pkTest, skTest } = DEMO_KEYS.acme
type Call = ReturnType<typeof setup>['call']

let serial = 0
const eventId = () => `evt_pscale_${String(++serial).padStart(8, '0')}`
let orders = 0
const purchase = (userId: string) => ({
  id: eventId(),
  type: 'purchase',
  userId,
  orderId: `order_${++orders}`,
  amount: 20,
  currency: 'USD',
})

async function track(call: Call, events: unknown[], key: string) {
  const answer = await call<{ results: EventResult[] }>('POST', '/v1/events', {
    key,
    body: { events },
  })
  expect(answer.body.results.map((result) => result.status)).toEqual(events.map(() => 'accepted'))
}

/** Other users' referrals, first purchases, orders and conversions, straight into the store. */
function storeOthers(store: Store, campaignId: string, count: number, at: number) {
  storeConversions(store, campaignId, count, at)
  for (let i = 0; i < count; i++) {
    const referral = {
      campaignId,
      code: `storedCode${i % 300}`,
      referrerId: `stored_referrer_${i % 300}`,
      userId: `stored_user_${i}`,
      visitorId: `stored_visitor_${i}`,
      at,
    }
    store.addReferral(ACME, referral)
    store.addFirstPurchase(ACME, { ...referral, orderId: `stored_order_${i}` })
    store.markOrder(ACME, `stored_order_${i}`, `stored_user_${i}`)
  }
}

/** Records handed out for one request of 50 purchases, one by each of alice's 50 friends. */
async function fiftyPurchases(stored: number, boughtBefore: number) {
  const counting = countingStore()
  const limits = { pkRateLimit: 1e9, skRateLimit: 1e9 }
  const { call, clock, service } = setup({ ...limits, store: counting.store })
  const campaign = await createCampaign(call, { rewardTrigger: 'purchase' })
  const link = await call<{ code: string }>('POST', '/v1/links', {
    key: pkTest,
    body: { campaignId: campaign, referrerId: 'alice' },
  })
  const { code } = link.body
  storeOthers(service.store, campaign, stored, clock.now())
  const users = Array.from({ length: 50 }, (_, i) => `user_${i}_scale`)
  const visitor = (user: string) => `visitor_${user}`
  await track(
    call,
    users.map((user) => ({ id: eventId(), type: 'click', code, visitorId: visitor(user) })),
    pkTest,
  )
  await track(
    call,
    users.map((user) => ({
      id: eventId(),
      type: 'signup',
      code,
      visitorId: visitor(user),
      userId: user,
    })),
    pkTest,
  )
  for (let round = 0; round < boughtBefore; round++) {
    await track(call, users.map(purchase), skTest)
    clock.advance(MINUTE)
  }
  const before = counting.handedOut()
  await track(call, users.map(purchase), skTest)
  const read = counting.handedOut() - before
  const summary = await call<LinkSummary>('GET', `/v1/links/${code}/summary`, { key: skTest })
  return { read, conversions: summary.body.conversions }
}

describe('what a purchase reads from the store', () => {
  it('is the same with 5,000 other referred buyers stored as with none', async () => {
    const empty = await fiftyPurchases(0, 0)
    const full = await fiftyPurchases(5_000, 0)
    expect(empty.conversions).toBe(50)
    expect(full.conversions).toBe(50)
    expect(full.read).toBe(empty.read)
  })

  it('is the same when every friend bought 40 times before as when each bought once', async () => {
    const once = await fiftyPurchases(0, 1)
    const often = await fiftyPurchases(0, 40)
    expect(often.conversions).toBe(50)
    expect(often.read).toBe(once.read)
  })
})
