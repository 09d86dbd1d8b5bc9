// app/api/paddle-webhook/route.ts: the notification destination's URL ends /api/paddle-webhook.
import { Paddle } from '@paddle/paddle-node-sdk'
import { paddleWebhook } from 'referral-widget/server'

export const POST = paddleWebhook({
  paddle: new Paddle(process.env.PADDLE_API_KEY ?? ''), //   your client: its webhooks only
  endpointSecret: process.env.PADDLE_WEBHOOK_SECRET ?? '', // the destination's secret key
  secretKey: process.env.REFERRAL_SECRET_KEY ?? '', //       sk_live_…, never in a page
  apiBase: 'https://referrals.example.net',
})
