// What the tests of POST /v1/events share: well-formed clicks and signups with fresh ids, the
// sending of a batch with a key of org_acme's test mode, links to click, and a campaign's stats.

import { expect } from 'vitest'
import type { Campaign, EventResult, Link } from '../../demo/service/schemas.ts'
import { DEMO_CAMPAIGNS, DEMO_KEYS, type setup } from './helpers.ts'

const ACME = DEMO_CAMPAIGNS.acme
export const { pkTest, skTest } = DEMO_KEYS.acme

type Call = ReturnType<typeof setup>['call']
type Results = { results: EventResult[] }

interface ClickEvent {
  id: string
  type: 'click'
  code?: string
  visitorId: string
  occurredAt?: string
}
interface SignupEvent {
  id: string
  type: 'signup'
  code?: string
  visitorId: string
  userId?: string
  occurredAt?: string
}

let serial = 0
/** A fresh, well-formed event id. */
const eventId = () => `evt_${String(++serial).padStart(8, '0')}`

export const click = (
  code: string,
  visitorId: string,
  extra: Partial<ClickEvent> = {},
): ClickEvent => ({
  id: eventId(),
  type: 'click',
  code,
  visitorId,
  ...extra,
})

export const signup = (
  visitorId: string,
  userId: string,
  extra: Partial<SignupEvent> = {},
): SignupEvent => ({ id: eventId(), type: 'signup', visitorId, userId, ...extra })

export function send(call: Call, events: unknown[], key: string = pkTest) {
  return call<Results>('POST', '/v1/events', { key, body: { events } })
}

/** Sends events and checks each was accepted. */
export async function track(call: Call, ...events: unknown[]) {
  const answer = await send(call, events)
  expect(answer.status).toBe(200)
  expect(answer.body.results.map((result) => result.status)).toEqual(events.map(() => 'accepted'))
  return answer
}

export async function makeLink(call: Call, referrerId: string, campaignId: string = ACME) {
  const answer = await call<Link>('POST', '/v1/links', {
    key: pkTest,
    body: { campaignId, referrerId },
  })
  expect([200, 201]).toContain(answer.status)
  return answer.body.code
}

export async function stats(call: Call, campaignId: string = ACME) {
  const answer = await call<Campaign>('GET', `/v1/campaigns/${campaignId}`, { key: skTest })
  expect(answer.status).toBe(200)
  return answer.body.stats
}

export const NO_ACTIVITY = {
  totalClicks: 0,
  totalConversions: 0,
  totalRewardsIssued: 0,
  selfReferrals: 0,
  reversedConversions: 0,
}
