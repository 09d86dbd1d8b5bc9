// The service at scale: what a signup reads from the store does not grow with the conversions or
// clicks already stored, and the checks that read it (one conversion per user and campaign, a
// referrer's lifetime and UTC-day limits, a visitor's most recent click) hold exactly among
// thousands of other conversions. No timing: the figures are in `npm run bench:service`.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EventResult, Link, LinkSummary } from '../../demo/service/schemas.ts'
import { fuzzOptions, fuzzTimeout } from '../support/fuzz.ts'
import { createCampaign, DAY, DEMO_CAMPAIGNS, DEMO_KEYS, HOUR, MINUTE, setup } from './helpers.ts'
import { ACME, countingStore, storeConversions } from './scale-support.ts'

const { pkTest, skTest } = DEMO_KEYS.acme
const NO_RATE_LIMIT = { pkRateLimit: 1e9 }

type Call = ReturnType<typeof setup>['call']

let serial = 0
const eventId = () => `evt_scale_${String(++serial).padStart(8, '0')}`
const click = (code: string, visitorId: string) => ({
  id: eventId(),
  type: 'click',
  code,
  visitorId,
})
const signup = (visitorId: string, userId: string, code?: string) => ({
  id: eventId(),
  type: 'signup',
  visitorId,
  userId,
  ...(code === undefined ? {} : { code }),
})

async function track(call: Call, events: unknown[]) {
  const answer = await call<{ results: EventResult[] }>('POST', '/v1/events', {
    key: pkTest,
    body: { events },
  })
  expect(answer.body.results.map((result) => result.status)).toEqual(events.map(() => 'accepted'))
}

async function makeLink(call: Call, referrerId: string, campaignId: string = DEMO_CAMPAIGNS.acme) {
  const answer = await call<Link>('POST', '/v1/links', {
    key: pkTest,
    body: { campaignId, referrerId },
  })
  return answer.body.code
}

/** How many conversions a link has, as its referrer's summary shows them. */
async function conversionsOf(call: Call, code: string) {
  const answer = await call<LinkSummary>('GET', `/v1/links/${code}/summary`, { key: skTest })
  expect(answer.status).toBe(200)
  return answer.body.conversions
}

describe('what a signup reads from the store', () => {
  /** Records handed out for one request of 50 signups, each by a visitor who clicked alice's link. */
  async function fiftySignups(storedConversions: number, clicksEach: number) {
    const counting = countingStore()
    const { call, clock, service } = setup({ ...NO_RATE_LIMIT, store: counting.store })
    const code = await makeLink(call, 'alice')
    storeConversions(service.store, DEMO_CAMPAIGNS.acme, storedConversions, clock.now())
    const visitors = Array.from({ length: 50 }, (_, i) => `visitor_${i}_scale`)
    for (let round = 0; round < clicksEach; round++) {
      await track(
        call,
        visitors.map((visitor) => click(code, visitor)),
      )
      clock.advance(MINUTE)
    }
    const before = counting.handedOut()
    await track(
      call,
      visitors.map((visitor, i) => signup(visitor, `user_${i}_scale`)),
    )
    const read = counting.handedOut() - before
    return { read, conversions: await conversionsOf(call, code) }
  }

  it('is the same with 5,000 conversions of the campaign stored as with none', async () => {
    const empty = await fiftySignups(0, 1)
    const full = await fiftySignups(5_000, 1)
    expect(empty.conversions).toBe(50)
    expect(full.conversions).toBe(50)
    expect(full.read).toBe(empty.read)
  })

  it('is the same when every visitor clicked 40 times as when each clicked once', async () => {
    const once = await fiftySignups(0, 1)
    const often = await fiftySignups(0, 40)
    expect(often.conversions).toBe(50)
    expect(often.read).toBe(once.read)
  })
})

describe('the limits among 4,000 conversions of other referrers', () => {
  it('stops at maxReferralsPerDay and maxReferralsPerUser exactly, on UTC days, once per user', async () => {
    const { call, clock, service } = setup(NO_RATE_LIMIT)
    const campaign = await createCampaign(call, {
      limits: { maxReferralsPerUser: 3, maxReferralsPerDay: 2 },
    })
    const other = await createCampaign(call)
    clock.set(Date.UTC(2026, 0, 20, 23, 0))
    storeConversions(service.store, campaign, 4_000, clock.now())
    // alice's own conversions in another campaign count for nothing here.
    service.store.addConversion(ACME, {
      campaignId: other,
      referrerId: 'alice',
      userId: 'user_elsewhere',
      at: clock.now(),
      code: 'elsewhereCode',
      visitorId: 'visitor_elsewhere',
      referrerReward: { amount: 5, currency: 'USD' },
    })
    const code = await makeLink(call, 'alice', campaign)
    const referred = async (visitor: string, user: string) => {
      await track(call, [click(code, visitor), signup(visitor, user, code)])
      return conversionsOf(call, code)
    }

    expect(await referred('visitor_one_xx', 'user_one')).toBe(1)
    // Converted through another referrer already: one conversion per user and campaign.
    expect(await referred('visitor_taken_xx', 'stored_user_17')).toBe(1)
    expect(await referred('visitor_two_xx', 'user_two')).toBe(2)
    clock.set(Date.UTC(2026, 0, 20, 23, 59, 59, 999))
    expect(await referred('visitor_three_xx', 'user_three')).toBe(2) // 2 today already

    clock.set(Date.UTC(2026, 0, 21)) // a new UTC day, an hour after the first
    expect(await referred('visitor_four_xx', 'user_four')).toBe(3)
    clock.advance(2 * DAY)
    expect(await referred('visitor_five_xx', 'user_five')).toBe(3) // 3 in all: the lifetime limit
    const otherReferrer = await makeLink(call, 'stored_referrer_5', campaign)
    expect(await conversionsOf(call, otherReferrer)).toBe(0) // stored under other codes
  })
})

describe('the click a signup without code credits', () => {
  it('is the one recorded first, of two clicks at the same moment', async () => {
    const { call } = setup()
    const second = await createCampaign(call)
    const alice = await makeLink(call, 'alice')
    const bob = await makeLink(call, 'bob')
    const carol = await makeLink(call, 'carol', second)
    await track(call, [click(alice, 'visitor_one_xx'), click(bob, 'visitor_one_xx')])
    await track(call, [click(carol, 'visitor_two_xx'), click(alice, 'visitor_two_xx')])
    await track(call, [signup('visitor_one_xx', 'user_one'), signup('visitor_two_xx', 'user_two')])
    expect(await conversionsOf(call, alice)).toBe(1)
    expect(await conversionsOf(call, bob)).toBe(0)
    expect(await conversionsOf(call, carol)).toBe(1)
  })

  it('is the most recent by time, not the last recorded, when the clock moved back', async () => {
    const { call, clock } = setup()
    const alice = await makeLink(call, 'alice')
    const bob = await makeLink(call, 'bob')
    await track(call, [click(alice, 'visitor_one_xx')])
    clock.advance(-HOUR)
    await track(call, [click(bob, 'visitor_one_xx'), signup('visitor_one_xx', 'user_one')])
    expect(await conversionsOf(call, alice)).toBe(1)
    expect(await conversionsOf(call, bob)).toBe(0)
  })
})

describe('the click a signup credits, for any clicks and clock moves', () => {
  const step = fc.record({
    link: fc.integer({ min: 0, max: 2 }),
    // Ties, small and large steps, and the clock moved back.
    hours: fc.constantFrom(0, 0, 1, 23, 25, -1, -30),
  })
  it(
    "is what the whole list of the visitor's clicks gives: the most recent inside its window, the first recorded of a tie",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(step, { maxLength: 8 }),
          fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
          fc.constantFrom(0, 12, 30, 200),
          async (steps, named, laterHours) => {
            const { call, clock } = setup()
            const short = await createCampaign(call, { attributionWindow: '1d' })
            const long = await createCampaign(call, { attributionWindow: '7d' })
            const links = [
              { code: await makeLink(call, 'alice', short), windowMs: DAY },
              { code: await makeLink(call, 'bob', short), windowMs: DAY },
              { code: await makeLink(call, 'carol', long), windowMs: 7 * DAY },
            ]
            const codeOf = (link: number) => links[link]?.code ?? ''
            const clicks: Array<{ link: number; at: number }> = []
            for (const { link, hours } of steps) {
              clock.advance(hours * HOUR)
              clicks.push({ link, at: clock.now() })
              await track(call, [click(codeOf(link), 'visitor_prop_xx')])
            }
            clock.advance(laterHours * HOUR)
            const now = clock.now()
            const expected = clicks
              .filter((c) => named === undefined || c.link === named)
              .filter((c) => now - c.at <= (links[c.link]?.windowMs ?? 0))
              .sort((a, b) => b.at - a.at)[0]?.link
            const code = named === undefined ? undefined : codeOf(named)
            await track(call, [signup('visitor_prop_xx', 'user_prop', code)])
            const credited = await Promise.all(links.map((link) => conversionsOf(call, link.code)))
            expect(credited).toEqual(links.map((_, i) => (i === expected ? 1 : 0)))
          },
        ),
        fuzzOptions,
      )
    },
    fuzzTimeout(30),
  )
})
