import { Paddle } from '@paddle/paddle-node-sdk'
import { lemonSqueezyWebhook, paddleWebhook, stripeWebhook } from 'referral-widget/server'
import Stripe from 'stripe'

// Where the purchases are recorded: your referral service, with its secret key.
const referral = {
  secretKey: process.env.REFERRAL_SECRET_KEY ?? '', // sk_live_… (sk_test_… for test events)
  apiBase: 'https://referrals.example.net',
}

// One handler per provider, each `(request: Request) => Promise<Response>`. A missing secret
// throws here, at startup, not at the first payment.
export const webhooks = {
  stripe: stripeWebhook({
    ...referral,
    stripe: new Stripe(process.env.STRIPE_SECRET_KEY ?? ''), // only its webhooks are used
    endpointSecret: process.env.STRIPE_WEBHOOK_SECRET ?? '', // whsec_…
  }),
  paddle: paddleWebhook({
    ...referral,
    paddle: new Paddle(process.env.PADDLE_API_KEY ?? ''), // only its webhooks are used
    endpointSecret: process.env.PADDLE_WEBHOOK_SECRET ?? '', // pdl_ntfset_…
  }),
  lemonSqueezy: lemonSqueezyWebhook({
    ...referral,
    signingSecret: process.env.LEMON_SQUEEZY_SIGNING_SECRET ?? '', // the webhook's signing secret
  }),
}
