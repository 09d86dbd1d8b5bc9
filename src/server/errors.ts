// The errors of referral-widget/server: each a class with a name and the fields a caller
// branches on. Messages never carry a secret key.

/** An option of the server entry's functions is wrong, or the call runs where it must not. */
export class ServerConfigError extends Error {
  override name = 'ServerConfigError'
  constructor(
    /** The option at fault (`secretKey`, `apiBase`, `userId`, …), or `environment`. */
    readonly option: string,
    message: string,
  ) {
    super(message)
  }
}

export type RecordSignupFailure =
  /** No answer within `timeoutMs`: the service was down, slow, or asked to wait longer. */
  | 'timeout'
  /** The service refused the whole request (a 4xx other than 429: a bad or expired key, …). */
  | 'refused'

/** The fields a failed recording carries, whatever it recorded. */
interface RecordFailureFields<Reason extends string> {
  reason: Reason
  message: string
  status?: number | undefined
  code?: string | undefined
  attempts: number
  eventId: string
  retryAfterMs?: number | undefined
  cause?: unknown
}

/** What the record functions' errors share: why, and what the service said. */
abstract class RecordError<Reason extends string> extends Error {
  readonly reason: Reason
  /** The last HTTP status seen, if any answer came. */
  readonly status: number | undefined
  /** The service's error code (`invalid_api_key`, `rate_limited`, …), if it gave one. */
  readonly code: string | undefined
  /** Requests made, the first included. */
  readonly attempts: number
  /** The event id the request carried: a later call for the same user or order carries it again. */
  readonly eventId: string
  /** How long the service last asked to wait (a 429's Retry-After), if it did: when to try again. */
  readonly retryAfterMs: number | undefined

  constructor(fields: RecordFailureFields<Reason>) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause })
    this.reason = fields.reason
    this.status = fields.status
    this.code = fields.code
    this.attempts = fields.attempts
    this.eventId = fields.eventId
    this.retryAfterMs = fields.retryAfterMs
  }
}

/** recordSignup could not get the service's answer for the event. */
export class RecordSignupError extends RecordError<RecordSignupFailure> {
  override name = 'RecordSignupError'
}

export type RecordPurchaseFailure =
  | RecordSignupFailure
  /** The service does not take purchases (one that implements only the seed's interface). */
  | 'unsupported'

/** recordPurchase could not get the service's answer for the purchase. */
export class RecordPurchaseError extends RecordError<RecordPurchaseFailure> {
  override name = 'RecordPurchaseError'
  /** The order the purchase was for: the event id is derived from it. */
  readonly orderId: string

  constructor(fields: RecordFailureFields<RecordPurchaseFailure> & { orderId: string }) {
    super(fields)
    this.orderId = fields.orderId
  }
}

export type RecordRefundFailure =
  | RecordSignupFailure
  /** The service does not take refunds (one without the refunds extension). */
  | 'unsupported'

/** recordRefund could not get the service's answer for the refund. */
export class RecordRefundError extends RecordError<RecordRefundFailure> {
  override name = 'RecordRefundError'
  /** The order the refund was of. */
  readonly orderId: string
  /** The refund's own id: the event id is derived from it. */
  readonly refundId: string

  constructor(
    fields: RecordFailureFields<RecordRefundFailure> & { orderId: string; refundId: string },
  ) {
    super(fields)
    this.orderId = fields.orderId
    this.refundId = fields.refundId
  }
}

/** A page (window and document) must never hold a secret key; Deno 1 has `window` alone. */
export function refuseInPage(name: string, instead: string) {
  if (typeof window === 'object' && typeof document === 'object') {
    throw new ServerConfigError(
      'environment',
      `[referral] ${name} runs on your server only: it needs a secret key, which must never reach a browser. ${instead}`,
    )
  }
}
