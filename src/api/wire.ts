// The wire shapes as the widget reads them: patterns, types and parsers, with no schema
// library, so the browser bundles stay small. The service validates with the zod schemas of
// schemas.ts, built from the same patterns; test/wire-parity.test.ts keeps the two in step. What
// only the referrer's side reads (campaigns, links, summaries) is in referrer-wire.ts: the script
// tag's tracking part, which shares this module with the files after it, carries none of it.
import { array, nullable, object, oneOf, optional, type Parser, string } from '../shared/parse.ts'

export const KEY_PATTERN = /^(pk|sk)_(test|live)_[A-Za-z0-9]{4,64}$/
export const CAMPAIGN_ID_PATTERN = /^camp_[A-Za-z0-9_-]{16,64}$/
export const CODE_PATTERN = /^[A-Za-z0-9]{8,12}$/
export const REFERRER_ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/
/** Event ids and visitor ids share one shape. */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/
/** A purchase's order id (extension: purchases), the idempotency key of a purchase. */
export const ORDER_ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/
/**
 * ISO 8601 UTC, strictly: real month, day, hour, minute and second ranges, and at most
 * nanoseconds (a timestamp of 70,000 digits must not reach a request body).
 */
export const ISO_TIMESTAMP_PATTERN =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?Z$/

export const MAX_EVENTS_PER_REQUEST = 100
/**
 * The largest request body the widget sends: Chromium refuses a `keepalive` fetch (and a
 * beacon) whose bodies in flight pass 64 KiB, before it reaches the network.
 */
export const MAX_BODY_BYTES = 60 * 1024
export const MAX_ATTRIBUTION_DAYS = 365

/**
 * A user token (CONTRACT.md "User tokens"): `v1.<payload>.<signature>`, both parts base64url
 * without padding; the signature is an HMAC-SHA256, 32 bytes, so 43 characters.
 */
export const USER_TOKEN_PATTERN = /^v1\.([A-Za-z0-9_-]{2,})\.([A-Za-z0-9_-]{43})$/
/** Longer than any token a valid payload makes (a 128-character userId gives about 270). */
export const MAX_USER_TOKEN_LENGTH = 512
/** How far ahead a token's `exp` may be. */
export const MAX_USER_TOKEN_LIFETIME_SECONDS = 24 * 3600

export type CampaignStatus = 'active' | 'paused' | 'archived'

export interface Reward {
  type: 'credit'
  amount: number
  currency: string
}

/** The friend's reward, with the code the site made for them at its payment provider (extension). */
export interface ReferredReward extends Reward {
  promotionCode?: string
}

export interface PublicCampaign {
  id: string
  name: string
  status: CampaignStatus
  rewardTrigger: string
  referrerReward: Reward
  referredReward: ReferredReward
  attributionWindow: string
  createdAt: string
}

export interface Link {
  id: string
  code: string
  campaignId: string
  referrerId: string
  createdAt: string
}

export interface TrackedEvent {
  id: string
  type: 'click' | 'signup'
  code?: string | undefined
  visitorId: string
  userId?: string | undefined
  occurredAt?: string | undefined
}

export interface EventResult {
  id: string | null
  status: 'accepted' | 'duplicate' | 'rejected'
  /** `param` (extension): the event's field at fault, when one is. */
  error?: { code: string; message: string; param?: string | undefined } | undefined
}

export type ReferralStatus = 'clicked' | 'signed_up' | 'converted'

/** What a referrer may see of their own link's results: figures, never who was referred. */
export interface LinkSummary {
  code: string
  campaignId: string
  clicks: number
  signups: number
  conversions: number
  /** Extension (purchases): people whose first purchase was credited to this link. */
  buyers?: number | undefined
  rewardsEarned: { amount: number; currency: string }
  recent: Array<{ at: string; status: ReferralStatus }>
}

export interface ErrorBody {
  error: { type: string; code: string; message: string; param?: string | undefined }
}

const timestamp = string(ISO_TIMESTAMP_PATTERN)
/** Event fields as the widget sends them (and keeps them in storage). */
export const trackedEventShape = {
  id: string(CLIENT_ID_PATTERN),
  type: oneOf(['click', 'signup']),
  code: optional(string(CODE_PATTERN)),
  visitorId: string(CLIENT_ID_PATTERN),
  userId: optional(string(REFERRER_ID_PATTERN)),
  occurredAt: optional(timestamp),
}

export const parseEventsResponse: Parser<{ results: EventResult[] }> = object({
  results: array(
    object({
      id: nullable(string()),
      status: oneOf(['accepted', 'duplicate', 'rejected']),
      error: optional(object({ code: string(), message: string(), param: optional(string()) })),
    }),
  ),
})

export const parseErrorBody: Parser<ErrorBody> = object({
  error: object({ type: string(), code: string(), message: string(), param: optional(string()) }),
})
