// The purchase the demo's visitor makes, recorded by the dev server as the shop's backend: the
// form's defaults, the body the route takes, and how the service's verdict reads.
import type { Purchase, PurchaseVerdict } from './api.ts'
import { money } from './format.ts'

export interface PurchaseDraft {
  userId: string
  orderId: string
  amount: string
  currency: string
}

/** A new order id: `order_` and six letters or digits. */
export const newOrderId = (random: () => number = Math.random) =>
  `order_${random().toString(36).slice(2, 8).padEnd(6, '0')}`

export const DEFAULT_AMOUNT = '49.90'

/** The draft as the route takes it; recordPurchase checks the values and says what is wrong. */
export function purchaseOf(draft: PurchaseDraft): Purchase {
  return {
    userId: draft.userId.trim(),
    orderId: draft.orderId.trim(),
    amount: Number(draft.amount),
    currency: draft.currency.trim(),
  }
}

/** The verdict in one line, led by its status. */
export function verdictText(verdict: PurchaseVerdict, purchase: Purchase): string {
  switch (verdict.status) {
    case 'accepted':
      return `accepted: order ${verdict.orderId} of ${purchase.userId}, ${money(purchase.amount, purchase.currency)} (event ${verdict.eventId}).`
    case 'duplicate':
      return `duplicate: order ${verdict.orderId} was recorded already; nothing changed.`
    case 'rejected':
      return `rejected: ${verdict.error?.code ?? 'unknown'}: ${verdict.error?.message ?? 'the service gave no reason.'}`
  }
}
