// What the in-memory store keeps for one organization and mode, and the helpers that keep its
// indexes.

import type { Click, Conversion, FirstPurchase, Referral, Signup } from './records.ts'
import type { Campaign, Link } from './schemas.ts'

/** A click and its place in the order of recording, which breaks ties between equal times. */
interface RecordedClick {
  click: Click
  seq: number
}

/** A visitor's latest click by campaign and by code: what attribution can pick from. */
interface VisitorClicks {
  byCampaign: Map<string, RecordedClick>
  byCode: Map<string, RecordedClick>
  /** Every click of theirs, oldest first: the latest are found again when one is taken back. */
  all: RecordedClick[]
}

/** A campaign's conversions with the counts its limits are checked against. */
interface CampaignConversions {
  all: Conversion[]
  users: Set<string>
  byReferrer: Map<string, { total: number; byDay: Map<number, number> }>
}

export interface ScopeData {
  campaigns: Map<string, Campaign>
  links: Map<string, Link>
  linksByReferrer: Map<string, Link>
  acceptedEvents: Set<string>
  clicksByVisitor: Map<string, VisitorClicks>
  clicksByCode: Map<string, Click[]>
  signupsByCode: Map<string, Signup[]>
  conversionsByCampaign: Map<string, CampaignConversions>
  conversionsByCode: Map<string, Conversion[]>
  /** Extension (refunds): a purchase campaign's conversions by the order that made them. */
  conversionsByOrder: Map<string, Conversion>
  orders: Set<string>
  buyers: Set<string>
  /** By user, then campaign. */
  referrals: Map<string, Map<string, Referral>>
  /** `campaignId \0 userId`. */
  purchasers: Set<string>
  firstPurchasesByCode: Map<string, FirstPurchase[]>
  /** By code, oldest first. */
  linkVisitors: Map<string, Set<string>>
  /** Event id → why it was refused. */
  selfReferrals: Map<string, string>
}

export const emptyScope = (): ScopeData => ({
  campaigns: new Map(),
  links: new Map(),
  linksByReferrer: new Map(),
  acceptedEvents: new Set(),
  clicksByVisitor: new Map(),
  clicksByCode: new Map(),
  signupsByCode: new Map(),
  conversionsByCampaign: new Map(),
  conversionsByCode: new Map(),
  conversionsByOrder: new Map(),
  orders: new Set(),
  buyers: new Set(),
  referrals: new Map(),
  purchasers: new Set(),
  firstPurchasesByCode: new Map(),
  linkVisitors: new Map(),
  selfReferrals: new Map(),
})

export const structured = <T>(value: T): T => structuredClone(value)

export const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

export const entry = <K, V>(map: Map<K, V>, key: K, create: () => V): V => {
  let found = map.get(key)
  if (found === undefined) {
    found = create()
    map.set(key, found)
  }
  return found
}

/** Later wins; of two at the same time the first recorded stays, as attribution wants. */
export const keepLatest = (
  map: Map<string, RecordedClick>,
  key: string,
  recorded: RecordedClick,
) => {
  const known = map.get(key)
  if (!known || recorded.click.at > known.click.at) map.set(key, recorded)
}
