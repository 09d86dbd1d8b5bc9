// The service's data behind one small interface, so a persistent store could replace the
// in-memory one. Every read and write is scoped to one organization and mode.

import type { Scope } from './keys.ts'
import type { Campaign, Link } from './schemas.ts'

export interface Click {
  visitorId: string
  code: string
  campaignId: string
  at: number
}

/**
 * A signup credited to a click of `code` (extension: the referrer's summary), whether or not it
 * became a conversion. A referrer signing up through their own link is not one.
 */
export interface Signup {
  code: string
  campaignId: string
  visitorId: string
  userId: string
  at: number
}

export interface Conversion {
  campaignId: string
  referrerId: string
  userId: string
  at: number
  /** The link and visitor it came through (extension: the referrer's summary). */
  code: string
  visitorId: string
  /** The referrer's reward as the campaign gave it at that moment: a later change does not reach it. */
  referrerReward: { amount: number; currency: string }
}

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
  clicksOf(scope: Scope, visitorId: string): readonly Click[]
  /** In the order they were recorded. */
  clicksOfCode(scope: Scope, code: string): readonly Click[]
  addSignup(scope: Scope, signup: Signup): void
  /** In the order they were recorded. */
  signupsOfCode(scope: Scope, code: string): readonly Signup[]
  addConversion(scope: Scope, conversion: Conversion): void
  conversions(scope: Scope, campaignId: string): readonly Conversion[]

  /** Forgets everything. */
  clear(): void
}

interface ScopeData {
  campaigns: Map<string, Campaign>
  links: Map<string, Link>
  linksByReferrer: Map<string, Link>
  acceptedEvents: Set<string>
  clicksByVisitor: Map<string, Click[]>
  clicksByCode: Map<string, Click[]>
  signupsByCode: Map<string, Signup[]>
  conversionsByCampaign: Map<string, Conversion[]>
}

const emptyScope = (): ScopeData => ({
  campaigns: new Map(),
  links: new Map(),
  linksByReferrer: new Map(),
  acceptedEvents: new Set(),
  clicksByVisitor: new Map(),
  clicksByCode: new Map(),
  signupsByCode: new Map(),
  conversionsByCampaign: new Map(),
})

const structured = <T>(value: T): T => structuredClone(value)

export function createMemoryStore(): Store {
  const scopes = new Map<string, ScopeData>()
  const codes = new Set<string>()

  const data = (scope: Scope): ScopeData => {
    const key = `${scope.org}\u0000${scope.mode}`
    let found = scopes.get(key)
    if (!found) {
      found = emptyScope()
      scopes.set(key, found)
    }
    return found
  }

  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key)
    if (list) list.push(value)
    else map.set(key, [value])
  }

  // Copies in and out, so no caller can change stored data by holding a reference.
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
      push(data(scope).clicksByVisitor, click.visitorId, { ...click })
      push(data(scope).clicksByCode, click.code, { ...click })
    },
    clicksOf: (scope, visitorId) =>
      (data(scope).clicksByVisitor.get(visitorId) ?? []).map((c) => ({ ...c })),
    clicksOfCode: (scope, code) =>
      (data(scope).clicksByCode.get(code) ?? []).map((c) => ({ ...c })),
    addSignup: (scope, signup) => push(data(scope).signupsByCode, signup.code, { ...signup }),
    signupsOfCode: (scope, code) =>
      (data(scope).signupsByCode.get(code) ?? []).map((s) => ({ ...s })),
    addConversion: (scope, conversion) =>
      push(data(scope).conversionsByCampaign, conversion.campaignId, structured(conversion)),
    conversions: (scope, campaignId) =>
      (data(scope).conversionsByCampaign.get(campaignId) ?? []).map(structured),

    clear: () => {
      scopes.clear()
      codes.clear()
    },
  }
}
