// referral-widget/server: the site's backend half. Fetch and Web Crypto only (no DOM, no Node
// built-ins), so it runs on Node 20+, Deno, Bun and edge runtimes.

export { ATTRIBUTION_COOKIE } from './api/attribution-cookie.ts'
export {
  type CheckoutReferenceProblem,
  type CheckoutReferral,
  readCheckoutReference,
} from './api/checkout-reference.ts'
export { checkoutReference } from './server/checkout-reference.ts'
export {
  RecordPurchaseError,
  type RecordPurchaseFailure,
  RecordRefundError,
  type RecordRefundFailure,
  RecordSignupError,
  type RecordSignupFailure,
  ServerConfigError,
} from './server/errors.ts'
export {
  KEPT_COOKIE,
  KEPT_COOKIE_INSECURE,
  type KeepOptions,
  keepAttribution,
} from './server/keep-attribution.ts'
export type { WebhookHandler } from './server/payments/handle.ts'
export {
  type LemonSqueezyWebhookOptions,
  lemonSqueezyWebhook,
} from './server/payments/lemon-squeezy.ts'
export {
  type PaddleClient,
  type PaddleWebhookOptions,
  paddleWebhook,
} from './server/payments/paddle.ts'
export {
  type StripeClient,
  type StripeWebhookOptions,
  stripeWebhook,
} from './server/payments/stripe.ts'
export type { WebhookOptions } from './server/payments/type.ts'
export {
  type Attribution,
  parseAttribution,
  type ReadOptions,
  readAttribution,
} from './server/read-attribution.ts'
export {
  type PurchaseResult,
  type RecordPurchaseOptions,
  recordPurchase,
} from './server/record-purchase.ts'
export {
  type RecordRefundOptions,
  type RefundResult,
  recordRefund,
} from './server/record-refund.ts'
export {
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  type RecordSignupOptions,
  recordSignup,
  type SignupResult,
} from './server/record-signup.ts'
export { type SignUserTokenOptions, signUserToken } from './server/user-token.ts'
