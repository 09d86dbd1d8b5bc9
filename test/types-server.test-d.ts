// Type tests of the server entry, `referral-widget/server`: reading the attribution, recording a
// sign-up, a purchase or a refund, the payment webhooks. Compile-time assertions (expectTypeOf, @ts-expect-error) that
// `npm run test:types` (part of `npm test`) and `npm run typecheck` check with tsc. What a
// backend writes against it must keep compiling, and what it must refuse must keep being refused.
import { Paddle } from '@paddle/paddle-node-sdk'
import Stripe from 'stripe'
import { describe, expectTypeOf, test } from 'vitest'
import type { Attribution } from '../src/index.ts'
import * as server from '../src/server.ts'

describe('referral-widget/server', () => {
  test('readAttribution and parseAttribution give the widget’s Attribution, or null', () => {
    expectTypeOf(server.readAttribution).returns.toEqualTypeOf<server.Attribution | null>()
    expectTypeOf(server.parseAttribution).returns.toEqualTypeOf<server.Attribution | null>()
    expectTypeOf<server.Attribution>().toEqualTypeOf<Attribution>()
    expectTypeOf(server.readAttribution).parameter(0).toEqualTypeOf<string | null | undefined>()
  })

  test('recordSignup needs a key, a base and a user id, and resolves to the event’s verdict', () => {
    expectTypeOf(server.recordSignup).returns.resolves.toEqualTypeOf<server.SignupResult>()
    expectTypeOf<server.SignupResult['status']>().toEqualTypeOf<
      'accepted' | 'duplicate' | 'rejected'
    >()
    // @ts-expect-error userId is required
    void (() => server.recordSignup({ secretKey: 'sk_test_acme', apiBase: 'https://x.test' }))
    expectTypeOf<server.RecordSignupError['reason']>().toEqualTypeOf<'timeout' | 'refused'>()
  })

  test('recordPurchase needs an order id, an amount and a currency too (service extension)', () => {
    expectTypeOf(server.recordPurchase).returns.resolves.toEqualTypeOf<server.PurchaseResult>()
    expectTypeOf<server.PurchaseResult['status']>().toEqualTypeOf<
      'accepted' | 'duplicate' | 'rejected'
    >()
    const base = { secretKey: 'sk_test_acme', apiBase: 'https://x.test', userId: 'u1' }
    // @ts-expect-error orderId, amount and currency are required
    void (() => server.recordPurchase(base))
    void (() => server.recordPurchase({ ...base, orderId: 'A-1', amount: 5, currency: 'EUR' }))
    expectTypeOf<server.RecordPurchaseError['reason']>().toEqualTypeOf<
      'timeout' | 'refused' | 'unsupported'
    >()
    expectTypeOf<server.RecordPurchaseError['orderId']>().toEqualTypeOf<string>()
  })

  test('recordRefund needs an order id and the refund’s own id; amount with currency', () => {
    expectTypeOf(server.recordRefund).returns.resolves.toEqualTypeOf<server.RefundResult>()
    const base = { secretKey: 'sk_test_acme', apiBase: 'https://x.test' }
    // @ts-expect-error refundId is required
    void (() => server.recordRefund({ ...base, orderId: 'A-1' }))
    void (() => server.recordRefund({ ...base, orderId: 'A-1', refundId: 're_1' }))
    expectTypeOf<server.RecordRefundError['reason']>().toEqualTypeOf<
      'timeout' | 'refused' | 'unsupported'
    >()
  })

  test('the webhooks take the site’s own SDK clients and give a Fetch handler', () => {
    const base = { secretKey: 'sk_test_acme', apiBase: 'https://x.test' }
    const stripe = new Stripe('sk_test_x')
    const paddle = new Paddle('pdl_sdbx_apikey_x')
    expectTypeOf(
      server.stripeWebhook({ ...base, stripe, endpointSecret: 'whsec_x' }),
    ).toEqualTypeOf<(request: Request) => Promise<Response>>()
    expectTypeOf(paddle).toExtend<server.PaddleClient>()
    expectTypeOf(stripe).toExtend<server.StripeClient>()
    void (() => server.paddleWebhook({ ...base, paddle, endpointSecret: 'pdl_ntfset_x' }))
    void (() => server.lemonSqueezyWebhook({ ...base, signingSecret: 's' }))
    // @ts-expect-error the Stripe client is required
    void (() => server.stripeWebhook({ ...base, endpointSecret: 'whsec_x' }))
    expectTypeOf(server.checkoutReference).returns.resolves.toEqualTypeOf<string | null>()
  })
})
