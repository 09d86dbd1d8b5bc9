// Records a refund from the site's backend (a service extension, CONTRACT.md "Refunds"): a
// refund of the order that made a conversion reverses it. Secret key only, like a purchase. One
// event per refund: its id is derived from the refund's id, the refund's idempotency key, so a
// refund delivered twice counts once.

import { CURRENCY_PATTERN } from '../api/referrer-wire.ts'
import { ORDER_ID_PATTERN } from '../api/wire.ts'
import { RecordRefundError, ServerConfigError } from './errors.ts'
import { postExtensionEvent } from './extension.ts'
import { refundEventId } from './ids.ts'
import { checkServiceOptions, quote, type ServiceOptions } from './options.ts'

export interface RecordRefundOptions extends ServiceOptions {
  /** The refunded order's id, as recordPurchase recorded it (1-128 of `A-Z a-z 0-9 _ . : @ -`). */
  orderId: string
  /**
   * The refund's own id (the provider's refund or event id; 1-128 of `A-Z a-z 0-9 _ . : @ -`):
   * one refund counts once, however often it is delivered.
   */
  refundId: string
  /** The amount refunded, a positive number in `currency`; informational. With `currency`. */
  amount?: number | undefined
  /** ISO 4217, three upper-case letters (`EUR`); given with `amount`. */
  currency?: string | undefined
}

export type RefundResult =
  | { status: 'accepted' | 'duplicate'; eventId: string; orderId: string; refundId: string }
  | {
      status: 'rejected'
      eventId: string
      orderId: string
      refundId: string
      error: { code: string; message: string; param?: string | undefined }
    }

const ID_RULE = '1-128 of A-Z a-z 0-9 _ . : @ -'

function checkRefund(options: RecordRefundOptions) {
  const { orderId, refundId, amount, currency } = options
  for (const [option, value] of [
    ['orderId', orderId],
    ['refundId', refundId],
  ] as const) {
    if (typeof value !== 'string' || !ORDER_ID_PATTERN.test(value)) {
      throw new ServerConfigError(
        option,
        `[referral] ${option} must be ${ID_RULE}, not ${quote(value)}.`,
      )
    }
  }
  if (amount !== undefined) {
    if (typeof amount !== 'number' || !Number.isFinite(amount) || !(amount > 0)) {
      throw new ServerConfigError(
        'amount',
        `[referral] amount must be a positive finite number, or left out, not ${quote(amount)}.`,
      )
    }
  }
  if (currency !== undefined || amount !== undefined) {
    // An amount is only meaningful in a currency, and a currency alone says nothing.
    if (typeof currency !== 'string' || !CURRENCY_PATTERN.test(currency)) {
      throw new ServerConfigError(
        'currency',
        `[referral] currency must be an ISO 4217 code of three upper-case letters (EUR) given with amount, not ${quote(currency)}.`,
      )
    }
    if (amount === undefined) {
      throw new ServerConfigError('amount', '[referral] currency is given without amount.')
    }
  }
  return { orderId, refundId, amount, currency }
}

/**
 * Posts one refund event with a secret key and resolves to the service's verdict on it:
 * `accepted` (whether or not the order made a conversion), `duplicate` (this refund was recorded
 * already) or `rejected`. Retries as recordSignup does until `timeoutMs`. Rejects with
 * RecordRefundError when no verdict came in time (`timeout`), the whole request was refused
 * (`refused`, e.g. a 401), or the service does not take refunds (`unsupported`); throws
 * ServerConfigError before any request for a bad option or inside a browser page.
 */
export async function recordRefund(options: RecordRefundOptions): Promise<RefundResult> {
  const { secretKey, url, fetchImpl } = checkServiceOptions(
    'recordRefund',
    options,
    'Record refunds from your server, where the secret key lives.',
  )
  const { orderId, refundId, amount, currency } = checkRefund(options)
  const eventId = await refundEventId(refundId)
  // Only the contract's fields: a service strict about refunds would refuse `occurredAt`.
  const event = {
    id: eventId,
    type: 'refund',
    orderId,
    ...(amount !== undefined && currency !== undefined ? { amount, currency } : {}),
  }
  const verdict = await postExtensionEvent(
    'refunds',
    {
      ...{ event, url, secretKey, fetchImpl, options, request: 'refund' },
      what: `the refund ${quote(refundId)} of order ${quote(orderId)}`,
    },
    (failure) => new RecordRefundError({ ...failure, eventId, orderId, refundId }),
  )
  return { ...verdict, eventId, orderId, refundId }
}
