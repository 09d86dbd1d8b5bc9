import { Hono } from 'hono'
import * as z from 'zod/mini'
import type { Clock } from './clock.ts'
import { creditedClick, issueRewards } from './credit.ts'
import { invalid, secretKeyRequired } from './errors.ts'
import { type AppEnv, isPlainObject, jsonBody, requireObject } from './http.ts'
import type { Scope } from './keys.ts'
import { ingestPurchase } from './purchases.ts'
import type { Click } from './records.ts'
import { type EventResult, MAX_EVENTS_PER_REQUEST, PurchaseEvent, TrackedEvent } from './schemas.ts'
import type { Store } from './store.ts'
import { describeFirstIssue } from './validate.ts'

const rejected = (
  id: string | null,
  code: string,
  message: string,
  param?: string,
): EventResult => ({
  id,
  status: 'rejected',
  error: { code, message, ...(param ? { param } : {}) },
})

/** The first problem of an event that does not fit its type's shape, naming the field. */
function invalidEvent(input: unknown, issues: Parameters<typeof describeFirstIssue>[0]) {
  const id = isPlainObject(input) && typeof input.id === 'string' ? input.id : null
  const problem = describeFirstIssue(issues, input)
  // The click and signup shape lists two types; the service takes a third (extension).
  const message =
    problem.param === 'type' && problem.code === 'parameter_invalid'
      ? 'type must be "click", "signup" or "purchase".'
      : problem.message
  return rejected(id, problem.code, message, problem.param)
}

/** Records events in order; the server's clock, not `occurredAt`, is what counts. */
export function ingestEvents(store: Store, scope: Scope, raw: readonly unknown[], now: number) {
  /** A signup credited to `click`: a referral, and in a signup campaign, a conversion. */
  const signUp = (click: Click, userId: string) => {
    const campaign = store.campaign(scope, click.campaignId)
    const link = store.linkByCode(scope, click.code)
    if (!campaign || !link || campaign.status !== 'active') return
    if (link.referrerId === userId) return // self-referral
    const through = { code: link.code, referrerId: link.referrerId, visitorId: click.visitorId }
    store.addSignup(scope, { ...through, campaignId: campaign.id, userId, at: now })
    if (campaign.rewardTrigger === 'purchase') {
      // Extension: the user is referred; their first purchase is the conversion.
      store.addReferral(scope, { ...through, campaignId: campaign.id, userId, at: now })
      return
    }
    issueRewards(store, scope, campaign, through, userId, now)
  }

  return raw.map((input): EventResult => {
    if (isPlainObject(input) && input.type === 'purchase') {
      const purchase = PurchaseEvent.safeParse(input)
      if (!purchase.success) return invalidEvent(input, purchase.error.issues)
      return ingestPurchase(store, scope, purchase.data, now)
    }
    const parsed = TrackedEvent.safeParse(input)
    if (!parsed.success) return invalidEvent(input, parsed.error.issues)
    const event = parsed.data
    if (event.type === 'click' && event.code === undefined) {
      return rejected(event.id, 'parameter_missing', 'code is required for a click.', 'code')
    }
    if (event.type === 'signup' && event.userId === undefined) {
      return rejected(event.id, 'parameter_missing', 'userId is required for a signup.', 'userId')
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
    const attributed = creditedClick(store, scope, event.visitorId, event.code, now)
    if (attributed && event.userId !== undefined) signUp(attributed, event.userId)
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
    const key = c.get('apiKey')
    // Extension: a purchase is the site's backend's word, never a page's. A request that carries
    // one with a public key is refused whole, so no part of a forged batch counts.
    if (key.kind === 'pk') {
      const at = envelope.data.events.findIndex(
        (event) => isPlainObject(event) && event.type === 'purchase',
      )
      if (at !== -1) {
        throw secretKeyRequired(
          'Recording a purchase needs a secret key (sk_...), from your server. Public keys cannot do this.',
          `events.${at}.type`,
        )
      }
    }
    const results = ingestEvents(store, key, envelope.data.events, clock.now())
    return c.json({ results })
  })

  return routes
}
