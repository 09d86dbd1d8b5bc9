// stripeWebhook's refusals: deliveries whose signature or body is wrong (400, never read), the
// referral service out of reach (503, so Stripe delivers again; on virtual time, never slept
// on), anything unexpected (503, never a 500 or a throw), and options wrong from the start.
import { describe, expect, it, vi } from 'vitest'
import {
  RecordSignupError,
  ServerConfigError,
  type StripeClient,
  stripeWebhook,
} from '../../../src/server.ts'
import { neverAnswering, stalledBody } from '../service-world.ts'
import { checkoutCompleted, ENDPOINT_SECRET, signed, stripe } from './stripe-events.ts'
import { paymentWorld, SIGNATURE_INVALID, unreachable } from './world.ts'

async function world(change: Partial<Parameters<typeof stripeWebhook>[0]> = {}) {
  const local = await paymentWorld()
  const handler = stripeWebhook({
    ...local.options,
    stripe,
    endpointSecret: ENDPOINT_SECRET,
    ...change,
  })
  const { reference } = await local.referredVisitor()
  const event = checkoutCompleted({ client_reference_id: reference })
  return { ...local, handler, event }
}

const SERVICE_UNAVAILABLE = { status: 503, body: { error: 'service_unavailable' } }

describe('stripeWebhook: what it never reads', () => {
  it('a body changed after signing: 400 signature_invalid, nothing sent', async () => {
    const { handler, deliver, event, fetchSpy } = await world()
    const { body, headers } = await signed(event)
    const tampered = body.replace('"amount_total":4900', '"amount_total":490000')
    expect(await deliver(handler, tampered, headers)).toEqual(SIGNATURE_INVALID)
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('signed with another secret: 400 signature_invalid', async () => {
    const { handler, deliver, event } = await world()
    const { body, headers } = await signed(event, { secret: 'whsec_someone_else' })
    expect(await deliver(handler, body, headers)).toEqual(SIGNATURE_INVALID)
  })

  it('signed ten minutes ago (past the SDK’s five-minute tolerance): 400 signature_invalid', async () => {
    const { handler, deliver, event } = await world()
    const timestamp = Math.floor(Date.now() / 1000) - 600
    const { body, headers } = await signed(event, { timestamp })
    expect(await deliver(handler, body, headers)).toEqual(SIGNATURE_INVALID)
  })

  it('no Stripe-Signature header: 400 signature_invalid', async () => {
    const { handler, deliver, event } = await world()
    const { body } = await signed(event)
    expect(await deliver(handler, body, {})).toEqual(SIGNATURE_INVALID)
  })

  it('a signed body that is not JSON, or not an event: 400 body_invalid', async () => {
    const { handler, deliver, fetchSpy } = await world()
    const notJson = 'id=evt_1&type=checkout.session.completed'
    const header = await stripe.webhooks.generateTestHeaderStringAsync({
      payload: notJson,
      secret: ENDPOINT_SECRET,
    })
    const bodyInvalid = { status: 400, body: { error: 'body_invalid' } }
    expect(await deliver(handler, notJson, { 'Stripe-Signature': header })).toEqual(bodyInvalid)
    const noObject = await signed({ ...checkoutCompleted(), data: {} })
    expect(await deliver(handler, noObject.body, noObject.headers)).toEqual(bodyInvalid)
    const noAmount = await signed(checkoutCompleted({ currency: null }))
    expect(await deliver(handler, noAmount.body, noAmount.headers)).toEqual(bodyInvalid)
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('a customer id the service cannot take as a user id: 400 body_invalid, told to onError', async () => {
    const { handler, deliver, event, fetchSpy, onError } = await world()
    const odd = { ...event, data: { object: { ...event.data.object, customer: 'cus 1/2' } } }
    const { body, headers } = await signed(odd)
    expect(await deliver(handler, body, headers)).toEqual({
      status: 400,
      body: { error: 'body_invalid' },
    })
    expect(onError).toHaveBeenCalledWith(expect.any(ServerConfigError))
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('another method than POST: 405', async () => {
    const { handler, time } = await world()
    const answer = await time.drive(handler(new Request('https://shop.example.test/webhooks')))
    expect(answer.status).toBe(405)
    expect(answer.headers.get('allow')).toBe('POST')
  })
})

describe('stripeWebhook: the referral service does not take it', () => {
  it('unreachable: 503 service_unavailable within 8 s (retried meanwhile); delivered again later, recorded', async () => {
    const failing = unreachable()
    const { handler, deliver, event, time, onError, options, stats } = await world({
      fetch: failing,
    })
    const { body, headers } = await signed(event)
    expect(await deliver(handler, body, headers)).toEqual(SERVICE_UNAVAILABLE)
    expect(failing.mock.calls.length).toBeGreaterThan(1)
    expect(time.elapsed()).toBeLessThanOrEqual(8000)
    expect(onError).toHaveBeenCalledWith(expect.any(RecordSignupError))
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ reason: 'timeout' })
    // Stripe's next attempt, with the service back.
    const again = stripeWebhook({ ...options, stripe, endpointSecret: ENDPOINT_SECRET })
    expect(await deliver(again, body, headers)).toEqual({
      status: 200,
      body: { outcome: 'recorded' },
    })
    expect((await stats()).totalConversions).toBe(1)
  })

  it.each([
    ['a request that never answers', neverAnswering],
    ['an answer whose body stalls after the headers', stalledBody],
  ])('%s: 503 at timeoutMs, not a hang', async (_case, makeFetch) => {
    const { handler, deliver, event, time } = await world({ fetch: makeFetch(), timeoutMs: 3000 })
    const { body, headers } = await signed(event)
    expect(await deliver(handler, body, headers)).toEqual(SERVICE_UNAVAILABLE)
    expect(time.elapsed()).toBe(3000)
  })

  it('a service answering 503 throughout: 503, nothing counted', async () => {
    const { handler, deliver, event, service, stats } = await world()
    service.faults.set({ kind: 'unavailable', count: 1000 })
    const { body, headers } = await signed(event)
    expect(await deliver(handler, body, headers)).toEqual(SERVICE_UNAVAILABLE)
    service.faults.set(null)
    expect((await stats()).totalConversions).toBe(0)
  })

  it('a key the service refuses: 503 (the site must fix it; Stripe keeps the event meanwhile)', async () => {
    const { handler, deliver, event, onError } = await world({ secretKey: 'sk_test_nobody' })
    const { body, headers } = await signed(event)
    expect(await deliver(handler, body, headers)).toEqual(SERVICE_UNAVAILABLE)
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ reason: 'refused', status: 401 })
  })

  it('anything unexpected: 503 internal_error, never a throw or a 500', async () => {
    // A client whose event fails when read (not when awaited): a bug, not a bad delivery.
    const unreadable = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('unexpected')
        },
      },
    )
    const broken: StripeClient = { webhooks: { constructEventAsync: async () => unreadable } }
    const { handler, deliver, event, onError } = await world({ stripe: broken })
    const { body, headers } = await signed(event)
    expect(await deliver(handler, body, headers)).toEqual({
      status: 503,
      body: { error: 'internal_error' },
    })
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'unexpected' }))
  })

  it('without onError, a failure is logged once with the handler’s name, its prefix said once', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const { options, deliver, event } = await world()
      const { onError: _unset, ...withoutReporter } = options
      const handler = stripeWebhook({
        ...withoutReporter,
        fetch: unreachable(),
        stripe,
        endpointSecret: ENDPOINT_SECRET,
      })
      const { body, headers } = await signed(event)
      expect(await deliver(handler, body, headers)).toEqual(SERVICE_UNAVAILABLE)
      expect(log).toHaveBeenCalledTimes(1)
      expect(log.mock.calls[0]?.[0]).toMatch(/^\[referral\] stripeWebhook: the signup of /)
    } finally {
      log.mockRestore()
    }
  })

  it('a failing onError changes no answer', async () => {
    const onError = vi.fn(() => {
      throw new Error('reporter down')
    })
    const { handler, deliver, event } = await world({ fetch: unreachable(), onError })
    const { body, headers } = await signed(event)
    expect(await deliver(handler, body, headers)).toEqual(SERVICE_UNAVAILABLE)
    expect(onError).toHaveBeenCalled()
  })
})

describe('stripeWebhook refuses wrong options at once', () => {
  const base = { secretKey: 'sk_test_acme', apiBase: 'https://referrals.example.test' }

  it.each([
    ['no Stripe client', { stripe: undefined }, 'stripe'],
    ['an object without webhooks', { stripe: {} }, 'stripe'],
    ['an empty endpointSecret', { endpointSecret: '' }, 'endpointSecret'],
    ['an endpointSecret with a line break', { endpointSecret: 'whsec_x\n' }, 'endpointSecret'],
    ['a public key', { secretKey: 'pk_test_acme' }, 'secretKey'],
    ['a relative apiBase', { apiBase: '/referral' }, 'apiBase'],
    ['a zero timeout', { timeoutMs: 0 }, 'timeoutMs'],
  ])('%s', (_what, change, option) => {
    const options = { ...base, stripe, endpointSecret: ENDPOINT_SECRET, ...change }
    const failure = (() => {
      try {
        stripeWebhook(options as never)
      } catch (error) {
        return error
      }
    })()
    expect(failure).toBeInstanceOf(ServerConfigError)
    expect(failure).toMatchObject({ option })
    expect(String((failure as Error).message)).not.toContain(ENDPOINT_SECRET)
  })
})
