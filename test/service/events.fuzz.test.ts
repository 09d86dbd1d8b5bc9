// Property-based tests of POST /v1/events (fast-check): whatever the batches, each event id and
// each order id counts once, clicks and conversions match the stats, limits hold, a conversion
// happens only at its campaign's trigger (a signup, or the extension's first purchase), a public
// key never records a purchase or a refund, a self-referral counts once (extension), a refund
// reverses the conversion its order made, once, and nothing else (extension), and a replay
// changes nothing. FUZZ_RUNS sets the number of runs.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Campaign, EventResult, Link } from '../../demo/service/schemas.ts'
import { fuzzOptions, fuzzTimeout } from '../support/fuzz.ts'
import { campaignBody, DAY, DEMO_CAMPAIGNS, DEMO_KEYS, errorOf, HOUR, setup } from './helpers.ts'

const ACME = DEMO_KEYS.acme
const PEER = '198.51.100.7'
/** Rate limits out of the way: the properties are about answers, not about 429s. */
const NO_LIMITS = { pkRateLimit: 1e9, skRateLimit: 1e9, trustedProxies: [PEER] } as const
const SCOPE = { org: 'org_acme', mode: 'test' } as const

const EVENT_IDS = Array.from({ length: 20 }, (_, i) => `evt_pool_${String(i).padStart(4, '0')}`)
const ORDER_IDS = ['order_1', 'order_2', 'order_3', 'order_4', 'order_5', 'order_6']
const VISITORS = ['visitor_0001', 'visitor_0002', 'visitor_0003']
const USERS = ['ref_a', 'ref_b', 'user_0001', 'user_0002', 'user_0003']

/**
 * Campaigns with links: the seeded one, a limited one, one paused later (signup campaigns), and
 * a limited purchase campaign (extension). Links 0-5; index 6 stands for an unknown code.
 */
async function makeEventWorld() {
  const ctx = setup(NO_LIMITS)
  const { call } = ctx
  const create = async (fields: Record<string, unknown>) => {
    const answer = await call<Campaign>('POST', '/v1/campaigns', {
      key: ACME.skTest,
      body: { ...campaignBody('Fuzz campaign'), ...fields },
    })
    expect(answer.status).toBe(201)
    return answer.body.id
  }
  const limited = await create({
    attributionWindow: '2d',
    limits: { maxReferralsPerUser: 2, maxReferralsPerDay: 1 },
  })
  const paused = await create({ name: 'Paused later' })
  const bought = await create({
    rewardTrigger: 'purchase',
    attributionWindow: '2d',
    limits: { maxReferralsPerUser: 2, maxReferralsPerDay: 1 },
  })
  const link = async (campaignId: string, referrerId: string) =>
    (await call<Link>('POST', '/v1/links', { key: ACME.pkTest, body: { campaignId, referrerId } }))
      .body
  const links = [
    await link(DEMO_CAMPAIGNS.acme, 'ref_a'),
    await link(DEMO_CAMPAIGNS.acme, 'ref_b'),
    await link(limited, 'ref_a'),
    await link(paused, 'ref_c'),
    await link(bought, 'ref_a'),
    await link(bought, 'ref_b'),
  ]
  await call('PATCH', `/v1/campaigns/${paused}`, { key: ACME.skTest, body: { status: 'paused' } })
  return { ...ctx, campaigns: [DEMO_CAMPAIGNS.acme, limited, paused, bought], bought, links }
}

const poolEvent = fc.record(
  {
    id: fc.oneof(
      { weight: 19, arbitrary: fc.constantFrom(...EVENT_IDS) },
      { weight: 1, arbitrary: fc.constant('bad id!') },
    ),
    type: fc.oneof(
      { weight: 19, arbitrary: fc.constantFrom('click', 'signup', 'purchase') },
      // Extension: refunds, few, so that most public-key batches still go through.
      { weight: 1, arbitrary: fc.constant('refund') },
      { weight: 1, arbitrary: fc.constant('view') },
    ),
    // An index into the links (6: an unknown code); the limited campaigns' links most often.
    code: fc.option(
      fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom(2, 4, 5) },
        { weight: 1, arbitrary: fc.nat(6) },
      ),
      { nil: undefined, freq: 4 },
    ),
    visitorId: fc.option(fc.constantFrom(...VISITORS), { nil: undefined, freq: 20 }),
    userId: fc.option(fc.constantFrom(...USERS), { nil: undefined, freq: 10 }),
    orderId: fc.constantFrom(...ORDER_IDS),
    amount: fc.oneof(
      { weight: 19, arbitrary: fc.constantFrom(25, 0.01) },
      { weight: 1, arbitrary: fc.constant(0) },
    ),
  },
  { requiredKeys: ['id', 'type'] },
)
type PoolEvent = typeof poolEvent extends fc.Arbitrary<infer T> ? T : never

const batch = fc.record({
  events: fc.array(poolEvent, { minLength: 1, maxLength: 8 }),
  /** pk: the widget's JSON form; beacon: its page-hide form; sk: the site's backend. */
  via: fc.constantFrom('pk', 'beacon', 'sk', 'sk'),
  /** Server time that passes before the batch: across attribution windows and UTC days. */
  waitMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3 * DAY })),
})

type Sent = {
  id?: string | undefined
  type?: string | undefined
  code?: string | undefined
  userId?: string | undefined
  orderId?: string | undefined
  amount?: number | undefined
}

describe('events', () => {
  it(
    'count exactly once, by event id and by order id; conversions come at their trigger, within the limits; a replay changes nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 6 }), async (batches) => {
          const world = await makeEventWorld()
          const codeOf = (index: number | undefined) =>
            index === undefined ? undefined : (world.links[index]?.code ?? 'ZZZZZZZZZZ')
          const campaignOfCode = new Map(world.links.map((link) => [link.code, link.campaignId]))
          /** The wire form: click and signup carry no purchase fields (their shape is strict). */
          const wire = ({ code, orderId, amount, ...event }: PoolEvent): Sent => {
            if (event.type === 'refund') return { id: event.id, type: 'refund', orderId, amount }
            return {
              ...event,
              ...(code === undefined ? {} : { code: codeOf(code) }),
              ...(event.type === 'purchase' ? { orderId, amount, currency: 'EUR' } : {}),
            }
          }
          const send = async (events: Sent[], via: string) => {
            const answer =
              via === 'beacon'
                ? await world.call<{ results: EventResult[] }>('POST', '/v1/events', {
                    body: JSON.stringify({ key: ACME.pkTest, events }),
                    headers: { 'Content-Type': 'text/plain' },
                  })
                : await world.call<{ results: EventResult[] }>('POST', '/v1/events', {
                    key: via === 'sk' ? ACME.skTest : ACME.pkTest,
                    body: { events },
                  })
            // A public key's request that carries a purchase or a refund is refused whole.
            const secretOnly = (event: Sent) => event.type === 'purchase' || event.type === 'refund'
            if (via !== 'sk' && events.some(secretOnly)) {
              expect(answer.status).toBe(403)
              expect(errorOf(answer)).toMatchObject({ code: 'secret_key_required' })
              return []
            }
            expect(answer.status).toBe(200)
            expect(answer.body.results.map((result) => result.id)).toEqual(
              events.map((event) => event.id ?? null),
            )
            return answer.body.results
          }
          const stats = async () =>
            Promise.all(
              world.campaigns.map(
                async (id) =>
                  (await world.call<Campaign>('GET', `/v1/campaigns/${id}`, { key: ACME.skTest }))
                    .body.stats,
              ),
            )

          const accepted = new Map<string, Sent>()
          /** Extension: when each event id was accepted, in the order the service took them. */
          const acceptedOrder = new Map<string, number>()
          /** When each user's signups and purchases were accepted: `type user` → times. */
          const acceptedAt = new Map<string, Set<number>>()
          const sent: Array<[Sent[], string]> = []
          /** Extension: the ids refused as self-referrals (the referrer's own signup or purchase). */
          const selfReferrals = new Set<string>()
          for (const { events: pool, via, waitMs } of batches) {
            world.clock.advance(waitMs)
            const events: Sent[] = pool.map(wire)
            const results = await send(events, via)
            results.forEach((result, index) => {
              const event = events[index]
              if (!event?.id) return
              if (result.status === 'duplicate') {
                const order = event.type === 'purchase' && event.orderId
                const ordered = [...accepted.values()].some(
                  (seen) => order && seen.orderId === order,
                )
                expect(accepted.has(event.id) || ordered).toBe(true)
              }
              if (result.error?.code === 'self_referral') selfReferrals.add(event.id)
              if (result.status !== 'accepted') return
              expect(selfReferrals.has(event.id), `${event.id} refused, then accepted`).toBe(false)
              expect(accepted.has(event.id), `${event.id} accepted twice`).toBe(false)
              accepted.set(event.id, event)
              acceptedOrder.set(event.id, acceptedOrder.size)
              const key = `${event.type} ${event.userId}`
              acceptedAt.set(key, (acceptedAt.get(key) ?? new Set()).add(world.clock.now()))
            })
            sent.push([events, via])
          }

          // An order counts once, whatever the event ids that carried it.
          const orders = [...accepted.values()]
            .filter((event) => event.type === 'purchase')
            .map((event) => event.orderId)
          expect(new Set(orders).size).toBe(orders.length)

          const counted = await stats()
          world.campaigns.forEach((campaignId, index) => {
            const clicks = [...accepted.values()].filter(
              (event) =>
                event.type === 'click' && campaignOfCode.get(event.code ?? '') === campaignId,
            )
            const campaignStats = counted[index]
            expect(campaignStats?.totalClicks).toBe(clicks.length)
            const conversions = world.service.store.conversions(SCOPE, campaignId)
            const standing = conversions.filter((conversion) => conversion.reversedAt === undefined)
            expect(campaignStats?.totalConversions).toBe(standing.length)
            expect(campaignStats?.totalRewardsIssued).toBe(2 * standing.length)
            expect(campaignStats?.reversedConversions).toBe(conversions.length - standing.length)
            // Reversed or not, a user converts once in a campaign.
            const users = conversions.map((conversion) => conversion.userId)
            expect(new Set(users).size).toBe(users.length)
            // The trigger: a signup campaign converts at a signup, a purchase campaign at a purchase.
            const trigger = campaignId === world.bought ? 'purchase' : 'signup'
            for (const conversion of conversions) {
              expect(conversion.userId).not.toBe(conversion.referrerId)
              const times = acceptedAt.get(`${trigger} ${conversion.userId}`)
              expect(times?.has(conversion.at), `${trigger} of ${conversion.userId}`).toBe(true)
              // Reversed exactly when a refund of the order that made it was accepted after it.
              const [bought] = [...accepted.entries()].filter(
                ([, event]) => event.type === 'purchase' && event.orderId === conversion.orderId,
              )
              expect(conversion.orderId === undefined).toBe(trigger === 'signup')
              const refunded = [...accepted.entries()].some(
                ([id, event]) =>
                  event.type === 'refund' &&
                  event.orderId === conversion.orderId &&
                  bought !== undefined &&
                  (acceptedOrder.get(id) ?? -1) > (acceptedOrder.get(bought[0]) ?? -1),
              )
              expect(conversion.reversedAt !== undefined, `reversal of ${conversion.orderId}`).toBe(
                refunded,
              )
            }
          })
          // Each self-referral counts once in its campaign, whatever the retries.
          const refused = counted.reduce((sum, campaign) => sum + (campaign?.selfReferrals ?? 0), 0)
          expect(refused).toBe(selfReferrals.size)
          // The limited campaigns: at most 2 per referrer, at most 1 per referrer and UTC day.
          for (const campaignId of [world.campaigns[1] ?? '', world.bought]) {
            // A reversed conversion no longer counts against the limits.
            const limited = world.service.store
              .conversions(SCOPE, campaignId)
              .filter((conversion) => conversion.reversedAt === undefined)
            for (const referrerId of new Set(limited.map((conversion) => conversion.referrerId))) {
              const days = limited
                .filter((conversion) => conversion.referrerId === referrerId)
                .map((conversion) => Math.floor(conversion.at / DAY))
              expect(days.length).toBeLessThanOrEqual(2)
              expect(new Set(days).size).toBe(days.length)
            }
          }

          // Retries are always safe: the same batches again, later, accept and count nothing.
          world.clock.advance(HOUR)
          for (const [events, via] of sent) {
            const results = await send(events, via)
            expect(results.filter((result) => result.status === 'accepted')).toEqual([])
          }
          expect(await stats()).toEqual(counted)
        }),
        fuzzOptions,
      )
    },
    fuzzTimeout(30),
  )
})
