import { Hono } from 'hono'
import * as z from 'zod/mini'
import { type Clock, DAY, utcDay } from './clock.ts'
import { invalid } from './errors.ts'
import { type AppEnv, isPlainObject, jsonBody, requireObject } from './http.ts'
import type { Scope } from './keys.ts'
import {
  attributionWindowDays,
  type EventResult,
  MAX_EVENTS_PER_REQUEST,
  TrackedEvent,
} from './schemas.ts'
import type { Click, Store } from './store.ts'
import { describeFirstIssue } from './validate.ts'

const rejected = (id: string | null, code: string, message: string): EventResult => ({
  id,
  status: 'rejected',
  error: { code, message },
})

/** Records events in order; the server's clock, not `occurredAt`, is what counts. */
export function ingestEvents(store: Store, scope: Scope, raw: readonly unknown[], now: number) {
  const windowMs = (campaignId: string) => {
    const campaign = store.campaign(scope, campaignId)
    return campaign ? attributionWindowDays(campaign.attributionWindow) * DAY : 0
  }

  const convert = (click: Click, userId: string) => {
    const campaign = store.campaign(scope, click.campaignId)
    const link = store.linkByCode(scope, click.code)
    if (!campaign || !link || campaign.status !== 'active') return
    if (link.referrerId === userId) return // self-referral
    store.addSignup(scope, {
      code: link.code,
      campaignId: campaign.id,
      visitorId: click.visitorId,
      userId,
      at: now,
    })
    if (store.hasConverted(scope, campaign.id, userId)) return
    const { maxReferralsPerUser, maxReferralsPerDay } = campaign.limits
    const referred = (day?: number) =>
      store.conversionCount(scope, campaign.id, link.referrerId, day)
    if (maxReferralsPerUser !== null && referred() >= maxReferralsPerUser) return
    if (maxReferralsPerDay !== null && referred(utcDay(now)) >= maxReferralsPerDay) return
    store.addConversion(scope, {
      campaignId: campaign.id,
      referrerId: link.referrerId,
      userId,
      at: now,
      code: link.code,
      visitorId: click.visitorId,
      referrerReward: {
        amount: campaign.referrerReward.amount,
        currency: campaign.referrerReward.currency,
      },
    })
    campaign.stats.totalConversions += 1
    campaign.stats.totalRewardsIssued += 2 // one reward to each party
    store.saveCampaign(scope, campaign)
  }

  return raw.map((input): EventResult => {
    const id = isPlainObject(input) && typeof input.id === 'string' ? input.id : null
    const parsed = TrackedEvent.safeParse(input)
    if (!parsed.success) {
      const problem = describeFirstIssue(parsed.error.issues, input)
      return rejected(id, problem.code, problem.message)
    }
    const event = parsed.data
    if (event.type === 'click' && event.code === undefined) {
      return rejected(event.id, 'parameter_missing', 'code is required for a click.')
    }
    if (event.type === 'signup' && event.userId === undefined) {
      return rejected(event.id, 'parameter_missing', 'userId is required for a signup.')
    }
    if (store.isAccepted(scope, event.id)) return { id: event.id, status: 'duplicate' }

    if (event.type === 'click') {
      const link = event.code === undefined ? undefined : store.linkByCode(scope, event.code)
      if (!link) return rejected(event.id, 'unknown_code', 'No link has this code.')
      const campaign = store.campaign(scope, link.campaignId)
      if (campaign?.status !== 'active') {
        return rejected(event.id, 'campaign_not_active', 'The campaign of this link is not active.')
      }
      store.markAccepted(scope, event.id)
      campaign.stats.totalClicks += 1
      store.saveCampaign(scope, campaign)
      store.addClick(scope, {
        visitorId: event.visitorId,
        code: link.code,
        campaignId: campaign.id,
        at: now,
      })
      return { id: event.id, status: 'accepted' }
    }

    store.markAccepted(scope, event.id)
    const attributed = store
      .latestClicks(scope, event.visitorId, event.code)
      .filter((click) => now - click.at <= windowMs(click.campaignId))
      .sort((a, b) => b.at - a.at)[0]
    if (attributed && event.userId !== undefined) convert(attributed, event.userId)
    return { id: event.id, status: 'accepted' }
  })
}

const Envelope = z.object({
  events: z.array(z.unknown()).check(z.minLength(1), z.maxLength(MAX_EVENTS_PER_REQUEST)),
})

export function eventRoutes(store: Store, clock: Clock) {
  const routes = new Hono<AppEnv>()

  routes.post('/', async (c) => {
    const body = requireObject(await jsonBody(c))
    const unknown = Object.keys(body).find((field) => field !== 'events')
    if (unknown !== undefined)
      throw invalid('parameter_unknown', `Unknown field: ${unknown}.`, unknown)
    if (!Object.hasOwn(body, 'events'))
      throw invalid('parameter_missing', 'events is required.', 'events')
    const envelope = Envelope.safeParse(body)
    if (!envelope.success) {
      throw invalid(
        'parameter_invalid',
        `events must be an array of 1 to ${MAX_EVENTS_PER_REQUEST} events.`,
        'events',
      )
    }
    const results = ingestEvents(store, c.get('apiKey'), envelope.data.events, clock.now())
    return c.json({ results })
  })

  return routes
}
