// app/api/lemon-squeezy-webhook/route.ts: the webhook's callback URL ends in
// /api/lemon-squeezy-webhook.
import { lemonSqueezyWebhook } from 'referral-widget/server'

export const POST = lemonSqueezyWebhook({
  signingSecret: process.env.LEMON_SQUEEZY_SIGNING_SECRET ?? '', // the webhook's signing secret
  secretKey: process.env.REFERRAL_SECRET_KEY ?? '', //              sk_live_…, never in a page
  apiBase: 'https://referrals.example.net',
})
