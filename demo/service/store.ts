// The service's data behind one small interface, so a persistent store could replace the
// in-memory one. Every read and write is scoped to one organization and mode.

import { utcDay } from './clock.ts'
import type { Scope } from './keys.ts'
import {
  type Click,
  type Conversion,
  type FirstPurchase,
  MAX_LINK_VISITORS,
  type Referral,
  type Signup,
} from './records.ts'
import type { Campaign, Link } from './schemas.ts'
import { emptyScope, entry, keepLatest, push, type ScopeData, structured } from './scope-data.ts'

export type { Click, Conversion, FirstPurchase, Referral, Signup } from './records.ts'

export interface Store {
  insertCampaign(scope: Scope, campaign: Campaign): void
  /** Replaces a stored campaign with a new version of itself. */
  saveCampaign(scope: Scope, campaign: Campaign): void
  campaign(scope: Scope, id: string): Campaign | undefined
  /** Newest first. */
  campaigns(scope: Scope): readonly Campaign[]

  insertLink(scope: Scope, link: Link): void
  linkByCode(scope: Scope, code: string): Link | undefined
  linkByReferrer(scope: Scope, campaignId: string, referrerId: string): Link | undefined
  /** Whether a code is used anywhere, so codes stay unique across scopes. */
  codeTaken(code: string): boolean

  isAccepted(scope: Scope, eventId: string): boolean
  markAccepted(scope: Scope, eventId: string): void
  addClick(scope: Scope, click: Click): void
  /**
   * The visitor's most recent click in each campaign they clicked in (of `code` only, if given):
   * at most one a campaign, the first recorded of two at the same time; in the order recorded.
   * Whatever a click's attribution window, the click it would credit is among these.
   */
  latestClicks(scope: Scope, visitorId: string, code?: string): readonly Click[]
  /** In the order they were recorded. */
  clicksOfCode(scope: Scope, code: string): readonly Click[]
  addSignup(scope: Scope, signup: Signup): void
  /** In the order they were recorded. */
  signupsOfCode(scope: Scope, code: string): readonly Signup[]
  addConversion(scope: Scope, conversion: Conversion): void
  /** Whether the user has converted in the campaign, through any referrer, reversed or not. */
  hasConverted(scope: Scope, campaignId: string, userId: string): boolean
  /**
   * The referrer's conversions in the campaign that stand (not reversed): all of them, or those
   * of one UTC day (`utcDay`).
   */
  conversionCount(scope: Scope, campaignId: string, referrerId: string, day?: number): number
  /**
   * A link's conversions (extension: the referrer's summary), reversed ones included, in the
   * order they were recorded.
   */
  conversionsOfCode(scope: Scope, code: string): readonly Conversion[]
  /**
   * A campaign's every conversion, reversed ones included, in the order recorded: for audits,
   * never read per event.
   */
  conversions(scope: Scope, campaignId: string): readonly Conversion[]

  // Extension: purchases.
  /** Whether a purchase with this order id was accepted: the order id is its idempotency key. */
  orderTaken(scope: Scope, orderId: string): boolean
  /** Takes the order id, and counts the user as a buyer. */
  markOrder(scope: Scope, orderId: string, userId: string): void
  /** Whether a purchase of the user was accepted, credited or not. */
  hasBought(scope: Scope, userId: string): boolean
  /** Keeps the first referral of a user in a campaign; a later one changes nothing. */
  addReferral(scope: Scope, referral: Referral): void
  referral(scope: Scope, campaignId: string, userId: string): Referral | undefined
  /** The user's referrals, one a campaign at most, in the order recorded. */
  referralsOfUser(scope: Scope, userId: string): readonly Referral[]
  addFirstPurchase(scope: Scope, purchase: FirstPurchase): void
  /** Whether a purchase of the user was credited in the campaign already. */
  hasPurchased(scope: Scope, campaignId: string, userId: string): boolean
  /** In the order they were recorded. */
  firstPurchasesOfCode(scope: Scope, code: string): readonly FirstPurchase[]

  // Extension: refunds.
  /**
   * Marks the conversion the order made as reversed at `at`, once: the reversed conversion, or
   * undefined when the order made none or it was reversed already.
   */
  reverseConversion(scope: Scope, orderId: string, at: number): Conversion | undefined

  // Extension: self-referrals.
  /** Notes a visitor that asked for the link; it keeps the most recent MAX_LINK_VISITORS. */
  addLinkVisitor(scope: Scope, code: string, visitorId: string): void
  /**
   * Takes the visitor's clicks on `code` out of attribution and the link's summary (they were
   * the referrer's own); returns them.
   */
  disownClicks(scope: Scope, code: string, visitorId: string): Click[]
  isLinkVisitor(scope: Scope, code: string, visitorId: string): boolean
  /** Notes the event id a self-referral was refused with, and why: its verdict stays. */
  markSelfReferral(scope: Scope, eventId: string, message: string): void
  /** Why the event id was refused as a self-referral, if it was. */
  selfReferral(scope: Scope, eventId: string): string | undefined

  /** Forgets everything. */
  clear(): void
}

export function createMemoryStore(): Store {
  const scopes = new Map<string, ScopeData>()
  const codes = new Set<string>()
  let clicksRecorded = 0

  const data = (scope: Scope): ScopeData =>
    entry(scopes, `${scope.org}\u0000${scope.mode}`, emptyScope)

  // Copies in and out, so no caller can change stored data by holding a reference. Indexes share
  // the stored copies, and answers copy only what they return: never a whole list per event.
  return {
    insertCampaign: (scope, campaign) =>
      void data(scope).campaigns.set(campaign.id, structured(campaign)),
    saveCampaign: (scope, campaign) =>
      void data(scope).campaigns.set(campaign.id, structured(campaign)),
    campaign: (scope, id) => {
      const found = data(scope).campaigns.get(id)
      return found && structured(found)
    },
    campaigns: (scope) => [...data(scope).campaigns.values()].reverse().map(structured),

    insertLink: (scope, link) => {
      const d = data(scope)
      d.links.set(link.code, { ...link })
      d.linksByReferrer.set(`${link.campaignId}\u0000${link.referrerId}`, { ...link })
      codes.add(link.code)
    },
    linkByCode: (scope, code) => {
      const found = data(scope).links.get(code)
      return found && { ...found }
    },
    linkByReferrer: (scope, campaignId, referrerId) => {
      const found = data(scope).linksByReferrer.get(`${campaignId}\u0000${referrerId}`)
      return found && { ...found }
    },
    codeTaken: (code) => codes.has(code),

    isAccepted: (scope, eventId) => data(scope).acceptedEvents.has(eventId),
    markAccepted: (scope, eventId) => void data(scope).acceptedEvents.add(eventId),
    addClick: (scope, click) => {
      const d = data(scope)
      const recorded = { click: { ...click }, seq: clicksRecorded++ }
      const visitor = entry(d.clicksByVisitor, click.visitorId, () => ({
        byCampaign: new Map(),
        byCode: new Map(),
        all: [],
      }))
      visitor.all.push(recorded)
      keepLatest(visitor.byCampaign, click.campaignId, recorded)
      keepLatest(visitor.byCode, click.code, recorded)
      push(d.clicksByCode, click.code, recorded.click)
    },
    latestClicks: (scope, visitorId, code) => {
      const visitor = data(scope).clicksByVisitor.get(visitorId)
      if (!visitor) return []
      const found =
        code === undefined ? [...visitor.byCampaign.values()] : [visitor.byCode.get(code)]
      return found
        .filter((recorded) => recorded !== undefined)
        .sort((a, b) => a.seq - b.seq)
        .map(({ click }) => ({ ...click }))
    },
    clicksOfCode: (scope, code) =>
      (data(scope).clicksByCode.get(code) ?? []).map((c) => ({ ...c })),
    addSignup: (scope, signup) => push(data(scope).signupsByCode, signup.code, { ...signup }),
    signupsOfCode: (scope, code) =>
      (data(scope).signupsByCode.get(code) ?? []).map((s) => ({ ...s })),

    addConversion: (scope, conversion) => {
      const d = data(scope)
      const stored = structured(conversion)
      const campaign = entry(d.conversionsByCampaign, stored.campaignId, () => ({
        all: [],
        users: new Set<string>(),
        byReferrer: new Map(),
      }))
      campaign.all.push(stored)
      campaign.users.add(stored.userId)
      const referrer = entry(campaign.byReferrer, stored.referrerId, () => ({
        total: 0,
        byDay: new Map(),
      }))
      referrer.total += 1
      const day = utcDay(stored.at)
      referrer.byDay.set(day, (referrer.byDay.get(day) ?? 0) + 1)
      push(d.conversionsByCode, stored.code, stored)
      if (stored.orderId !== undefined) d.conversionsByOrder.set(stored.orderId, stored)
    },
    hasConverted: (scope, campaignId, userId) =>
      data(scope).conversionsByCampaign.get(campaignId)?.users.has(userId) ?? false,
    conversionCount: (scope, campaignId, referrerId, day) => {
      const referrer = data(scope).conversionsByCampaign.get(campaignId)?.byReferrer.get(referrerId)
      if (!referrer) return 0
      return day === undefined ? referrer.total : (referrer.byDay.get(day) ?? 0)
    },
    conversionsOfCode: (scope, code) =>
      (data(scope).conversionsByCode.get(code) ?? []).map(structured),
    conversions: (scope, campaignId) =>
      (data(scope).conversionsByCampaign.get(campaignId)?.all ?? []).map(structured),

    orderTaken: (scope, orderId) => data(scope).orders.has(orderId),
    markOrder: (scope, orderId, userId) => {
      data(scope).orders.add(orderId)
      data(scope).buyers.add(userId)
    },
    hasBought: (scope, userId) => data(scope).buyers.has(userId),
    addReferral: (scope, referral) => {
      const byCampaign = entry(data(scope).referrals, referral.userId, () => new Map())
      if (!byCampaign.has(referral.campaignId)) byCampaign.set(referral.campaignId, { ...referral })
    },
    referral: (scope, campaignId, userId) => {
      const found = data(scope).referrals.get(userId)?.get(campaignId)
      return found && { ...found }
    },
    referralsOfUser: (scope, userId) =>
      [...(data(scope).referrals.get(userId)?.values() ?? [])].map((r) => ({ ...r })),
    addFirstPurchase: (scope, purchase) => {
      const d = data(scope)
      d.purchasers.add(`${purchase.campaignId}\u0000${purchase.userId}`)
      push(d.firstPurchasesByCode, purchase.code, { ...purchase })
    },
    hasPurchased: (scope, campaignId, userId) =>
      data(scope).purchasers.has(`${campaignId}\u0000${userId}`),
    firstPurchasesOfCode: (scope, code) =>
      (data(scope).firstPurchasesByCode.get(code) ?? []).map((p) => ({ ...p })),

    reverseConversion: (scope, orderId, at) => {
      const d = data(scope)
      const stored = d.conversionsByOrder.get(orderId)
      if (!stored || stored.reversedAt !== undefined) return undefined
      // Every index shares this record; the user stays converted, the referrer's limits free up.
      stored.reversedAt = at
      const referrer = d.conversionsByCampaign
        .get(stored.campaignId)
        ?.byReferrer.get(stored.referrerId)
      const day = utcDay(stored.at)
      const onDay = referrer?.byDay.get(day)
      if (referrer && onDay !== undefined) {
        referrer.total -= 1
        referrer.byDay.set(day, onDay - 1)
      }
      return structured(stored)
    },

    addLinkVisitor: (scope, code, visitorId) => {
      const visitors = entry(data(scope).linkVisitors, code, () => new Set<string>())
      visitors.delete(visitorId) // asking again makes it the most recent
      visitors.add(visitorId)
      for (const oldest of visitors) {
        if (visitors.size <= MAX_LINK_VISITORS) break
        visitors.delete(oldest)
      }
    },
    disownClicks: (scope, code, visitorId) => {
      const d = data(scope)
      const visitor = d.clicksByVisitor.get(visitorId)
      const taken = visitor?.all.filter(({ click }) => click.code === code) ?? []
      if (!visitor || taken.length === 0) return []
      visitor.all = visitor.all.filter(({ click }) => click.code !== code)
      visitor.byCode.delete(code)
      // The latest click left in each campaign, found again in the order they were recorded.
      visitor.byCampaign.clear()
      for (const recorded of visitor.all)
        keepLatest(visitor.byCampaign, recorded.click.campaignId, recorded)
      const ofCode = d.clicksByCode.get(code) ?? []
      d.clicksByCode.set(
        code,
        ofCode.filter((click) => click.visitorId !== visitorId),
      )
      return taken.map(({ click }) => ({ ...click }))
    },
    isLinkVisitor: (scope, code, visitorId) =>
      data(scope).linkVisitors.get(code)?.has(visitorId) ?? false,
    markSelfReferral: (scope, eventId, message) =>
      void data(scope).selfReferrals.set(eventId, message),
    selfReferral: (scope, eventId) => data(scope).selfReferrals.get(eventId),

    clear: () => {
      scopes.clear()
      codes.clear()
    },
  }
}
