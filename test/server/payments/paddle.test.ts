// paddleWebhook (referral-widget/server) against the local service, in-process: Paddle Billing's
// transaction.completed with the reference in custom_data, a renewal without it, an approved
// refund adjustment; deliveries signed as Paddle signs them and read back by the SDK's unmarshal.
import { describe, expect, it } from 'vitest'
import { paddleWebhook, ServerConfigError } from '../../../src/server.ts'
import { adjustment, PADDLE_SECRET, paddle, signed, transactionCompleted } from './paddle-events.ts'
import {
  DUPLICATE,
  eventsSent,
  ignored,
  RECORDED,
  SIGNATURE_INVALID,
  tally,
  unreachable,
  webhookWorld,
} from './world.ts'

const world = (change: Partial<Parameters<typeof paddleWebhook>[0]> = {}) =>
  webhookWorld(
    (options) => paddleWebhook({ ...options, paddle, endpointSecret: PADDLE_SECRET, ...change }),
    signed,
  )

describe('paddleWebhook: a referred friend pays', () => {
  it('a completed transaction with the reference: recorded, one conversion; again: duplicate', async () => {
    const { send, stats, referredVisitor, fetchSpy } = await world()
    const { code, visitorId, reference } = await referredVisitor()
    const event = transactionCompleted({ custom_data: { referral: reference } })
    expect(await send(event)).toEqual(RECORDED)
    expect(await stats()).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
    expect(eventsSent(fetchSpy)).toMatchObject([
      { type: 'signup', userId: 'paddle:ctm_01friend', code, visitorId },
      {
        type: 'purchase',
        userId: 'paddle:ctm_01friend',
        orderId: 'paddle:txn_01order',
        amount: 49,
        currency: 'USD',
      },
    ])
    expect(await send(event)).toEqual(DUPLICATE)
    expect((await stats()).totalConversions).toBe(1)
  })

  it('ten concurrent deliveries: one recorded, nine duplicate, one conversion', async () => {
    const { handler, deliver, stats, referredVisitor, time } = await world()
    const { reference } = await referredVisitor()
    const { body, headers } = await signed(
      transactionCompleted({ custom_data: { referral: reference } }),
    )
    const answers = await time.drive(
      Promise.all(Array.from({ length: 10 }, () => deliver(handler, body, headers))),
    )
    expect(tally(answers)).toEqual({ recorded: 1, duplicate: 9 })
    expect((await stats()).totalConversions).toBe(1)
  })

  it('a trial (0 at checkout): zero_amount, the referral kept; the first renewal converts', async () => {
    const { send, stats, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    const trial = transactionCompleted({
      custom_data: { referral: reference },
      subscription_id: 'sub_01friend',
      grandTotal: '0',
    })
    expect(await send(trial)).toEqual(ignored('zero_amount'))
    expect((await stats()).totalConversions).toBe(0)
    const renewal = transactionCompleted({
      id: 'txn_02renewal',
      subscription_id: 'sub_01friend',
      origin: 'subscription_recurring',
    })
    expect(await send(renewal)).toEqual(RECORDED)
    expect((await stats()).totalConversions).toBe(1)
  })

  it('an approved refund reverses the conversion once; created (pending) then updated (approved)', async () => {
    const { send, stats, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    await send(transactionCompleted({ custom_data: { referral: reference } }))
    const pending = adjustment('adjustment.created', { status: 'pending_approval' })
    expect(await send(pending)).toEqual(ignored('not_approved'))
    expect((await stats()).totalConversions).toBe(1)
    expect(await send(adjustment('adjustment.updated'))).toEqual(RECORDED)
    expect(await stats()).toMatchObject({ totalConversions: 0, reversedConversions: 1 })
    // The same adjustment again, as another event: the refund's id is the adjustment's.
    expect(await send(adjustment('adjustment.updated'))).toEqual(DUPLICATE)
    expect((await stats()).reversedConversions).toBe(1)
  })

  it('other adjustments (a credit) and other events: ignored event_unused', async () => {
    const { send, fetchSpy } = await world()
    expect(await send(adjustment('adjustment.created', { action: 'credit' }))).toEqual(
      ignored('event_unused'),
    )
    const created = { ...transactionCompleted(), event_type: 'transaction.created' }
    expect(await send(created)).toEqual(ignored('event_unused'))
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('no reference: no_reference; a changed one: reference_check_failed; nothing sent', async () => {
    const { send, fetchSpy, referredVisitor } = await world()
    const { reference } = await referredVisitor()
    expect(await send(transactionCompleted())).toEqual(ignored('no_reference'))
    const changed = reference.replace(
      /-([0-9a-f]{8})$/,
      (_, check: string) => `-${check.startsWith('0') ? '1' : '0'}${check.slice(1)}`,
    )
    expect(await send(transactionCompleted({ custom_data: { referral: changed } }))).toEqual(
      ignored('reference_check_failed'),
    )
    expect(fetchSpy).not.toHaveBeenCalled()
  })
})

describe('paddleWebhook: what it never reads, and a service out of reach', () => {
  it('a body changed after signing, another secret, a signature older than the SDK allows: 400', async () => {
    const { handler, deliver, fetchSpy } = await world()
    const event = transactionCompleted()
    const fresh = await signed(event)
    const tampered = fresh.body.replace('"4900"', '"490000"')
    expect(await deliver(handler, tampered, fresh.headers)).toEqual(SIGNATURE_INVALID)
    const other = await signed(event, { secret: 'pdl_ntfset_someone_else' })
    expect(await deliver(handler, other.body, other.headers)).toEqual(SIGNATURE_INVALID)
    const stale = await signed(event, { secondsAgo: 60 })
    expect(await deliver(handler, stale.body, stale.headers)).toEqual(SIGNATURE_INVALID)
    expect(await deliver(handler, fresh.body, { 'Paddle-Signature': 'h1=00' })).toEqual(
      SIGNATURE_INVALID,
    )
    expect(await deliver(handler, fresh.body, {})).toEqual(SIGNATURE_INVALID)
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('a signed body that is not JSON, or a transaction without totals: 400 body_invalid', async () => {
    const { handler, deliver } = await world()
    const bodyInvalid = { status: 400, body: { error: 'body_invalid' } }
    const notJson = await signed('not json')
    expect(await deliver(handler, notJson.body, notJson.headers)).toEqual(bodyInvalid)
    // Whatever the body says: the answer is not read from an error's message.
    const saysSignature = await signed('invalid signature')
    expect(await deliver(handler, saysSignature.body, saysSignature.headers)).toEqual(bodyInvalid)
    const noTotals = await signed(transactionCompleted({ details: null }))
    expect(await deliver(handler, noTotals.body, noTotals.headers)).toEqual(bodyInvalid)
  })

  it('the service unreachable: 503 within Paddle’s 5 s (4 s by default)', async () => {
    const { send, referredVisitor, time } = await world({ fetch: unreachable() })
    const { reference } = await referredVisitor()
    expect(await send(transactionCompleted({ custom_data: { referral: reference } }))).toEqual({
      status: 503,
      body: { error: 'service_unavailable' },
    })
    expect(time.elapsed()).toBeLessThanOrEqual(4000)
  })

  it('no Paddle client, or no secret: ServerConfigError at once', () => {
    const base = { secretKey: 'sk_test_acme', apiBase: 'https://referrals.example.test' }
    expect(() => paddleWebhook({ ...base, endpointSecret: PADDLE_SECRET } as never)).toThrow(
      ServerConfigError,
    )
    expect(() => paddleWebhook({ ...base, paddle, endpointSecret: '' })).toThrow(/endpointSecret/)
  })
})
