// app/api/stripe-webhook/route.ts (Next.js App Router): the endpoint's URL in Stripe's Dashboard
// ends /api/stripe-webhook. A route handler gets the Fetch Request, its body unread.
import { stripeWebhook } from 'referral-widget/server'
import Stripe from 'stripe'

export const POST = stripeWebhook({
  stripe: new Stripe(process.env.STRIPE_SECRET_KEY ?? ''), // your client: its webhooks only
  endpointSecret: process.env.STRIPE_WEBHOOK_SECRET ?? '', // whsec_…
  secretKey: process.env.REFERRAL_SECRET_KEY ?? '', //       sk_live_…, never in a page
  apiBase: 'https://referrals.example.net',
})
