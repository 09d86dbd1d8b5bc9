// The events as the local referral service validates them (zod): what the widget and the site's
// backend send to POST /v1/events, and its answer. schemas.ts re-exports them with the other
// wire shapes.
import * as z from 'zod/mini'
import { CURRENCY_PATTERN } from '../../src/api/referrer-wire.ts'
import {
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  ORDER_ID_PATTERN,
  REFERRER_ID_PATTERN,
} from '../../src/api/wire.ts'

const isoTimestamp = z.string().check(z.regex(ISO_TIMESTAMP_PATTERN))

export const EventType = z.enum(['click', 'signup'])
export type EventType = z.infer<typeof EventType>

const clientId = z.string().check(z.regex(CLIENT_ID_PATTERN))

/** One event as the widget sends it. */
export const TrackedEvent = z.strictObject({
  id: clientId,
  type: EventType,
  code: z.optional(z.string().check(z.regex(CODE_PATTERN))),
  visitorId: clientId,
  userId: z.optional(z.string().check(z.regex(REFERRER_ID_PATTERN))),
  occurredAt: z.optional(isoTimestamp),
})
export type TrackedEvent = z.infer<typeof TrackedEvent>

/**
 * Extension: a purchase, recorded by the site's backend with a secret key. `visitorId` is
 * optional (a server has no visitor) unless `code` names the click to credit.
 */
export const PurchaseEvent = z.strictObject({
  id: clientId,
  type: z.literal('purchase'),
  userId: z.string().check(z.regex(REFERRER_ID_PATTERN)),
  orderId: z.string().check(z.regex(ORDER_ID_PATTERN)),
  amount: z.number().check(z.positive()),
  currency: z.string().check(z.regex(CURRENCY_PATTERN)),
  code: z.optional(z.string().check(z.regex(CODE_PATTERN))),
  visitorId: z.optional(clientId),
  occurredAt: z.optional(isoTimestamp),
})
export type PurchaseEvent = z.infer<typeof PurchaseEvent>

/**
 * Extension: a refund of an order, recorded by the site's backend with a secret key. `id` is the
 * refund's own key (the provider's refund or event id); amount and currency are informational.
 */
export const RefundEvent = z.strictObject({
  id: clientId,
  type: z.literal('refund'),
  orderId: z.string().check(z.regex(ORDER_ID_PATTERN)),
  amount: z.optional(z.number().check(z.positive())),
  currency: z.optional(z.string().check(z.regex(CURRENCY_PATTERN))),
  occurredAt: z.optional(isoTimestamp),
})
export type RefundEvent = z.infer<typeof RefundEvent>

export const EventResult = z.object({
  id: z.nullable(z.string()),
  status: z.enum(['accepted', 'duplicate', 'rejected']),
  /** `param` (extension): the event's field at fault, when one is. */
  error: z.optional(
    z.object({ code: z.string(), message: z.string(), param: z.optional(z.string()) }),
  ),
})
export type EventResult = z.infer<typeof EventResult>

export const EventsResponse = z.object({ results: z.array(EventResult) })
export type EventsResponse = z.infer<typeof EventsResponse>
