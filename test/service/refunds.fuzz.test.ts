// Property-based test of refunds (extension, CONTRACT.md "Refunds"; fast-check): whatever the
// purchases and refunds the site's backend sends, in any order and with ids reused, each result
// and the stats follow a model of the contract: an order converts at most once, a refund of the
// order that converted reverses it once and for good, nothing else changes anything, a reversed
// conversion frees the referrer's limit, and a replay changes nothing. FUZZ_RUNS sets the runs.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fuzzOptions, fuzzTimeout } from '../support/fuzz.ts'
import { DEMO_CAMPAIGNS, DEMO_KEYS } from './helpers.ts'
import { NOTHING, purchaseWorld } from './purchase-world.ts'

/** Referred at sign-up in the purchase campaign: their first purchase can convert. */
const REFERRED = ['user_1', 'user_2', 'user_3', 'user_4']
/** Referred in the seeded signup campaign only: converted there at sign-up, with no order. */
const SIGNED_UP = 'user_s'
const ORDERS = ['order_1', 'order_2', 'order_3', 'order_4', 'order_5']
/** One pool for purchases and refunds: an event id counts once, whatever its type. */
const IDS = Array.from({ length: 10 }, (_, i) => `evt_ref_${String(i).padStart(4, '0')}`)
const LIMIT = 2

const event = fc.oneof(
  fc.record({
    id: fc.constantFrom(...IDS),
    type: fc.constant('purchase' as const),
    userId: fc.constantFrom(...REFERRED, SIGNED_UP, 'user_guest'),
    orderId: fc.constantFrom(...ORDERS),
    amount: fc.constantFrom(19.99, 120),
    currency: fc.constant('EUR'),
  }),
  fc.record({
    id: fc.constantFrom(...IDS),
    type: fc.constant('refund' as const),
    orderId: fc.constantFrom(...ORDERS, 'order_never'),
    // Whole or partial, with or without an amount: the same reversal.
    amount: fc.option(fc.constantFrom(5, 19.99), { nil: undefined }),
  }),
)
type Event = typeof event extends fc.Arbitrary<infer T> ? T : never

/** The contract, as a model: the status of each event, and what stands. */
function model() {
  const accepted = new Set<string>()
  const orders = new Set<string>()
  const bought = new Set<string>()
  /** Order id → whether its conversion was reversed. */
  const conversions = new Map<string, boolean>()
  let standing = 0
  const take = (sent: Event): 'accepted' | 'duplicate' => {
    if (accepted.has(sent.id)) return 'duplicate'
    if (sent.type === 'refund') {
      accepted.add(sent.id)
      if (conversions.get(sent.orderId) === false) {
        conversions.set(sent.orderId, true)
        standing -= 1
      }
      return 'accepted'
    }
    if (orders.has(sent.orderId)) return 'duplicate'
    accepted.add(sent.id)
    orders.add(sent.orderId)
    // Only a referred user's first purchase can convert, within the limit of what stands.
    if (REFERRED.includes(sent.userId) && !bought.has(sent.userId)) {
      bought.add(sent.userId)
      if (standing < LIMIT) {
        conversions.set(sent.orderId, false)
        standing += 1
      }
    }
    return 'accepted'
  }
  const reversed = () => [...conversions.values()].filter(Boolean).length
  return { take, standing: () => standing, reversed, buyers: () => bought.size }
}

describe('refunds', () => {
  it(
    'reverse the conversion their order made, once and for good, and nothing else; a replay changes nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(event, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
          async (batches) => {
            const world = await purchaseWorld({ maxReferralsPerUser: LIMIT })
            const code = await world.link('alice')
            for (const user of REFERRED) await world.referred(code, user)
            await world.referred(await world.link('alice', DEMO_CAMPAIGNS.acme), SIGNED_UP)
            const seeded = await world.stats(DEMO_CAMPAIGNS.acme)
            expect(seeded.totalConversions).toBe(1)

            const expected = model()
            for (const batch of batches) {
              const answer = await world.send(batch, DEMO_KEYS.acme.skTest)
              expect(answer.status).toBe(200)
              const statuses = answer.body.results.map((result) => result.status)
              expect(statuses).toEqual(batch.map(expected.take))
            }

            const standing = expected.standing()
            const stats = {
              ...NOTHING,
              totalClicks: REFERRED.length,
              totalConversions: standing,
              totalRewardsIssued: 2 * standing,
              reversedConversions: expected.reversed(),
            }
            expect(await world.stats()).toEqual(stats)
            expect(await world.summary(code)).toMatchObject({
              signups: REFERRED.length,
              conversions: standing,
              buyers: expected.buyers(),
              rewardsEarned: { amount: 15 * standing, currency: 'EUR' },
            })
            // The signup campaign's conversion has no order: no refund reaches it.
            expect(await world.stats(DEMO_CAMPAIGNS.acme)).toEqual(seeded)

            for (const batch of batches) {
              const again = await world.send(batch, DEMO_KEYS.acme.skTest)
              expect(again.body.results.map((result) => result.status)).toEqual(
                batch.map(() => 'duplicate'),
              )
            }
            expect(await world.stats()).toEqual(stats)
          },
        ),
        fuzzOptions,
      )
    },
    fuzzTimeout(40),
  )
})
