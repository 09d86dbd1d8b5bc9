import { Hono } from 'hono'
import * as z from 'zod/mini'
import type { Clock } from './clock.ts'
import { creditedClick, issueRewards } from './credit.ts'
import { invalid, secretKeyRequired } from './errors.ts'
import { type AppEnv, isPlainObject, jsonBody, requireObject } from './http.ts'
import type { Scope } from './keys.ts'
import { ingestPurchase } from './purchases.ts'
import type { Click } from './records.ts'
import { ingestRefund } from './refunds.ts'
import {
  type Campaign,
  type EventResult,
  type Link,
  MAX_EVENTS_PER_REQUEST,
  PurchaseEvent,
  RefundEvent,
  TrackedEvent,
} from './schemas.ts'
import { refusedBefore, refuseSelfReferral, selfReferralOf } from './self-referral.ts'
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
  // The click and signup shape lists two types; the service takes two more (extensions).
  const message =
    problem.param === 'type' && problem.code === 'parameter_invalid'
      ? 'type must be "click", "signup", "purchase" or "refund".'
      : problem.message
  return rejected(id, problem.code, message, problem.param)
}

/** Records events in order; the server's clock, not `occurredAt`, is what counts. */
export function ingestEvents(store: Store, scope: Scope, raw: readonly unknown[], now: number) {
  /**
   * The link a signup is credited to, with its active campaign and the click; without a click, the
   * link `code` names (checked for self-referral, credited nothing).
   */
  const creditOf = (visitorId: string, code: string | undefined) => {
    const click = creditedClick(store, scope, visitorId, code, now)
    const named = click?.code ?? code
    const link = named === undefined ? undefined : store.linkByCode(scope, named)
    const campaign = link && store.campaign(scope, link.campaignId)
    if (!link || campaign?.status !== 'active') return undefined
    return { click, campaign, link }
  }

  /** A signup credited to a click: a referral, and in a signup campaign, a conversion. */
  const signUp = (click: Click, campaign: Campaign, link: Link, userId: string) => {
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
    if (isPlainObject(input) && input.type === 'refund') {
      const refund = RefundEvent.safeParse(input)
      if (!refund.success) return invalidEvent(input, refund.error.issues)
      return ingestRefund(store, scope, refund.data, now)
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
    // A click taken back as a self-referral after it was accepted says so again.
    const refused = refusedBefore(store, scope, event.id)
    if (refused) return refused
    if (store.isAccepted(scope, event.id)) return { id: event.id, status: 'duplicate' }

    if (event.type === 'click') {
      const link = event.code === undefined ? undefined : store.linkByCode(scope, event.code)
      if (!link) return rejected(event.id, 'unknown_code', 'No link has this code.')
      const campaign = store.campaign(scope, link.campaignId)
      if (campaign?.status !== 'active') {
        return rejected(event.id, 'campaign_not_active', 'The campaign of this link is not active.')
      }
      // Extension: the referrer's own browser on their link counts no click.
      if (selfReferralOf(store, scope, link, undefined, event.visitorId)) {
        return refuseSelfReferral(store, scope, campaign, event, 'visitor')
      }
      store.markAccepted(scope, event.id)
      campaign.stats.totalClicks += 1
      store.saveCampaign(scope, campaign)
      store.addClick(scope, {
        eventId: event.id,
        visitorId: event.visitorId,
        code: link.code,
        campaignId: campaign.id,
        at: now,
      })
      return { id: event.id, status: 'accepted' }
    }

    // Extension: a signup that would credit the referrer's own link is refused, recording nothing.
    const credit = creditOf(event.visitorId, event.code)
    const why = credit && selfReferralOf(store, scope, credit.link, event.userId, event.visitorId)
    if (credit && why) return refuseSelfReferral(store, scope, credit.campaign, event, why)
    store.markAccepted(scope, event.id)
    if (credit?.click && event.userId !== undefined) {
      signUp(credit.click, credit.campaign, credit.link, event.userId)
    }
    return { id: event.id, status: 'accepted' }
  })
}

/** Extension: the event types only a secret key may record. */
const SECRET_ONLY = new Set<unknown>(['purchase', 'refund'])

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
    // Extension: a purchase or a refund is the site's backend's word, never a page's. A request
    // that carries one with a public key is refused whole, so no part of a forged batch counts.
    if (key.kind === 'pk') {
      const at = envelope.data.events.findIndex(
        (event) => isPlainObject(event) && SECRET_ONLY.has(event.type),
      )
      const event = envelope.data.events[at]
      if (isPlainObject(event)) {
        throw secretKeyRequired(
          `Recording a ${String(event.type)} needs a secret key (sk_...), from your server. Public keys cannot do this.`,
          `events.${at}.type`,
        )
      }
    }
    const results = ingestEvents(store, key, envelope.data.events, clock.now())
    return c.json({ results })
  })

  return routes
}
