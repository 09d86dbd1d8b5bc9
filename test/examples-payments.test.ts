// The payment webhook examples PAYMENTS.md shows, run as a site runs them: the handlers of
// docs/examples/server/payment-webhooks.ts mounted by the Hono and Express apps beside it, and the
// Next.js route handlers of docs/examples/next/app/api/, their secrets from the environment, the
// package as installed (dist/), the referral service at the address they name (the local service,
// in-process, behind fetch). A referred friend's signed checkout is recorded and counted by each
// provider through each; the same delivery with its reference changed is refused, counting nothing.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { makeCheckoutReference } from '../src/api/checkout-reference.ts'
import {
  PADDLE_SECRET,
  signed as paddleSigned,
  transactionCompleted,
} from './server/payments/paddle-events.ts'
import {
  checkoutCompleted,
  ENDPOINT_SECRET,
  signed as stripeSigned,
} from './server/payments/stripe-events.ts'
import { hmacHex, paymentWorld } from './server/payments/world.ts'

/** The apiBase the examples name. */
const SERVICE = 'https://referrals.example.net'
const LEMON_SQUEEZY_SECRET = 'ls-signing-secret-1'

type Provider = 'stripe' | 'paddle' | 'lemon-squeezy'
const PROVIDERS: Provider[] = ['stripe', 'paddle', 'lemon-squeezy']
interface Delivery {
  body: string
  headers: Record<string, string>
}

/** Lemon Squeezy's order_created of a paid test-mode order, the reference in its custom data. */
const lemonSqueezyOrder = (referral: string) => ({
  meta: {
    event_name: 'order_created',
    test_mode: true,
    webhook_id: 'wh_1',
    custom_data: { referral },
  },
  data: {
    type: 'orders',
    id: '1001',
    attributes: { customer_id: 77, total: 1999, currency: 'EUR', status: 'paid', test_mode: true },
  },
})

/** Each provider's signed delivery of a referred friend's paid checkout carrying `reference`. */
const CHECKOUTS: Record<Provider, (reference: string) => Promise<Delivery>> = {
  stripe: (reference) => stripeSigned(checkoutCompleted({ client_reference_id: reference })),
  paddle: (reference) =>
    paddleSigned(transactionCompleted({ custom_data: { referral: reference } })),
  'lemon-squeezy': async (reference) => {
    const body = JSON.stringify(lemonSqueezyOrder(reference))
    return { body, headers: { 'X-Signature': await hmacHex(LEMON_SQUEEZY_SECRET, body) } }
  },
}

let world: Awaited<ReturnType<typeof paymentWorld>> | undefined
const realFetch = globalThis.fetch
/** The fetch the examples' handlers find: the local service at SERVICE, the network elsewhere. */
function fetchThroughService(input: RequestInfo | URL, init?: RequestInit) {
  const url = new URL(input instanceof Request ? input.url : input)
  if (url.origin !== SERVICE) return realFetch(input, init)
  if (!world) throw new Error('no local service for this test')
  return world.fetchSpy(input, init)
}

const post = ({ body, headers }: Delivery): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body,
})

/** Each way in: a delivery to the provider's endpoint, the answer back. */
type Deliver = (provider: Provider, delivery: Delivery) => Promise<Response>
let deliver: Record<'Hono' | 'Express' | 'Next.js', Deliver>
let server: ReturnType<typeof createServer> | undefined

beforeAll(async () => {
  // The environment the examples read, before they are imported (their handlers are made then).
  vi.stubEnv('REFERRAL_SECRET_KEY', 'sk_test_acme')
  vi.stubEnv('STRIPE_SECRET_KEY', 'sk_test_site_own_stripe_key')
  vi.stubEnv('STRIPE_WEBHOOK_SECRET', ENDPOINT_SECRET)
  vi.stubEnv('PADDLE_API_KEY', 'pdl_sdbx_apikey_01test')
  vi.stubEnv('PADDLE_WEBHOOK_SECRET', PADDLE_SECRET)
  vi.stubEnv('LEMON_SQUEEZY_SIGNING_SECRET', LEMON_SQUEEZY_SECRET)
  vi.stubGlobal('fetch', fetchThroughService)
  const hono = (await import('../docs/examples/server/payments-hono.ts')).app
  const express = (await import('../docs/examples/server/payments-express.ts')).app
  const routes = {
    stripe: await import('../docs/examples/next/app/api/stripe-webhook/route.ts'),
    paddle: await import('../docs/examples/next/app/api/paddle-webhook/route.ts'),
    'lemon-squeezy': await import('../docs/examples/next/app/api/lemon-squeezy-webhook/route.ts'),
  }
  const listening = createServer(express)
  server = listening
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`

  deliver = {
    // In-process, as Hono's own tests reach an app; Express on a port; Next.js's POST called.
    Hono: async (provider, delivery) =>
      hono.request(`https://shop.example/webhooks/${provider}`, post(delivery)),
    Express: (provider, delivery) => realFetch(`${base}/webhooks/${provider}`, post(delivery)),
    'Next.js': (provider, delivery) =>
      routes[provider].POST(
        new Request(`https://shop.example/api/${provider}-webhook`, post(delivery)),
      ),
  }
})

afterAll(async () => {
  const listening = server
  if (listening) await new Promise((resolve) => listening.close(resolve))
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
})

describe.each(['Hono', 'Express', 'Next.js'] as const)('the payment webhooks through %s', (way) => {
  it.each(PROVIDERS)(
    '%s: a referred checkout, signed: 200 recorded, one conversion',
    async (provider) => {
      world = await paymentWorld()
      const { reference } = await world.referredVisitor()
      const answer = await deliver[way](provider, await CHECKOUTS[provider](reference))
      expect(answer.status).toBe(200)
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await answer.text()).toBe('{"outcome":"recorded"}')
      expect(await world.stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    },
  )

  it.each(PROVIDERS)(
    '%s: its reference changed after signing: 400 signature_invalid, none counted',
    async (provider) => {
      world = await paymentWorld()
      const { code, reference } = await world.referredVisitor()
      const delivery = await CHECKOUTS[provider](reference)
      const forged = await makeCheckoutReference(code, 'v_mallory_0001')
      if (!forged || !delivery.body.includes(reference)) throw new Error('nothing to change')
      const answer = await deliver[way](provider, {
        ...delivery,
        body: delivery.body.replace(reference, forged),
      })
      expect(answer.status).toBe(400)
      expect(await answer.json()).toEqual({ error: 'signature_invalid' })
      expect(await world.stats()).toMatchObject({ totalConversions: 0, totalRewardsIssued: 0 })
      expect(world.fetchSpy).not.toHaveBeenCalled() // nothing reached the service
    },
  )
})
