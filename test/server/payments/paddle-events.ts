// Paddle Billing events as Paddle sends them (snake_case, typed against the SDK's own response
// types), and deliveries signed offline as Paddle signs them: `Paddle-Signature:
// ts=<unix>;h1=<hex HMAC-SHA256 of "<ts>:<body>">`, read back by the SDK's unmarshal.
import {
  Environment,
  type IAdjustmentNotificationResponse,
  type IEventsResponse,
  type ITransactionNotificationResponse,
  Paddle,
} from '@paddle/paddle-node-sdk'
import { hmacHex } from './world.ts'

export const PADDLE_SECRET = 'pdl_ntfset_01test_secret'
/** The site's own Paddle client (sandbox); no request is ever made with it. */
export const paddle = new Paddle('pdl_sdbx_apikey_01test', { environment: Environment.sandbox })

let sequence = 0
const next = () => {
  sequence += 1
  return sequence.toString().padStart(6, '0')
}
const envelope = (event_type: string) => ({
  event_id: `evt_${next()}`,
  notification_id: `ntf_${sequence.toString().padStart(6, '0')}`,
  event_type,
  occurred_at: new Date().toISOString(),
})

const totals = (grandTotal: string) => ({
  subtotal: grandTotal,
  discount: '0',
  tax: '0',
  total: grandTotal,
  credit: '0',
  credit_to_balance: '0',
  balance: '0',
  grand_total: grandTotal,
  grand_total_tax: '0',
  currency_code: 'USD' as const,
})

export function transactionCompleted(
  fields: Partial<ITransactionNotificationResponse> & { grandTotal?: string } = {},
): IEventsResponse<ITransactionNotificationResponse> {
  const { grandTotal = '4900', ...rest } = fields
  return {
    ...envelope('transaction.completed'),
    data: {
      id: 'txn_01order',
      status: 'completed',
      customer_id: 'ctm_01friend',
      custom_data: null,
      currency_code: 'USD',
      origin: 'web',
      subscription_id: null,
      collection_mode: 'automatic',
      items: [],
      details: { tax_rates_used: [], totals: totals(grandTotal), line_items: [] },
      payments: [],
      created_at: '2026-03-01T12:00:00.000Z',
      updated_at: '2026-03-01T12:00:00.000Z',
      ...rest,
    },
  }
}

export function adjustment(
  type: 'adjustment.created' | 'adjustment.updated',
  fields: Partial<IAdjustmentNotificationResponse> = {},
): IEventsResponse<IAdjustmentNotificationResponse> {
  return {
    ...envelope(type),
    data: {
      id: 'adj_01refund',
      action: 'refund',
      type: 'full',
      transaction_id: 'txn_01order',
      subscription_id: null,
      customer_id: 'ctm_01friend',
      reason: 'requested by the customer',
      credit_applied_to_balance: false,
      currency_code: 'USD',
      status: 'approved',
      items: [],
      totals: {
        subtotal: '4900',
        tax: '0',
        total: '4900',
        fee: '0',
        earnings: '0',
        currency_code: 'USD',
        retained_fee: '0',
      },
      created_at: '2026-03-02T12:00:00.000Z',
      updated_at: '2026-03-02T12:00:00.000Z',
      ...fields,
    },
  }
}

/** The body and Paddle-Signature header of a delivery, signed `secondsAgo` before now. */
export async function signed(
  event: unknown,
  { secret = PADDLE_SECRET, secondsAgo = 0 }: { secret?: string; secondsAgo?: number } = {},
) {
  const body = typeof event === 'string' ? event : JSON.stringify(event)
  const ts = Math.floor(Date.now() / 1000) - secondsAgo
  const h1 = await hmacHex(secret, `${ts}:${body}`)
  return { body, headers: { 'Paddle-Signature': `ts=${ts};h1=${h1}` } }
}
