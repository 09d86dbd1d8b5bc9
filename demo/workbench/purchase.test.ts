import { describe, expect, it } from 'vitest'
import { rewardsOn } from './format.ts'
import { newOrderId, purchaseOf, verdictText } from './purchase.ts'

describe('the visitor’s purchase', () => {
  it('gets an order id the server entry takes', () => {
    expect(newOrderId(() => 0.5)).toBe('order_i00000')
    expect(newOrderId(() => 0)).toBe('order_000000')
    for (let i = 0; i < 50; i++) expect(newOrderId()).toMatch(/^order_[a-z0-9]{6}$/)
  })

  it('is sent as typed, trimmed: the server entry judges the values', () => {
    expect(
      purchaseOf({ userId: ' friend_1 ', orderId: 'order_1 ', amount: '49.90', currency: 'EUR' }),
    ).toEqual({ userId: 'friend_1', orderId: 'order_1', amount: 49.9, currency: 'EUR' })
    expect(purchaseOf({ userId: '', orderId: '', amount: '', currency: '' }).amount).toBe(0)
  })

  const purchase = { userId: 'friend_1', orderId: 'order_1', amount: 49.9, currency: 'EUR' }
  it.each([
    [
      { status: 'accepted', eventId: 'pu_abc', orderId: 'order_1' },
      'accepted: order order_1 of friend_1, €49.90 (event pu_abc).',
    ],
    [
      { status: 'duplicate', eventId: 'pu_abc', orderId: 'order_1' },
      'duplicate: order order_1 was recorded already; nothing changed.',
    ],
    [
      {
        status: 'rejected',
        eventId: 'pu_abc',
        orderId: 'order_1',
        error: { code: 'campaign_not_active', message: 'Not now.' },
      },
      'rejected: campaign_not_active: Not now.',
    ],
  ] as const)('reads the verdict %j', (verdict, text) => {
    expect(verdictText(verdict, purchase)).toBe(text)
  })
})

describe('rewardsOn', () => {
  it('says what issues the rewards', () => {
    expect(rewardsOn('signup')).toBe('rewards on the friend’s sign-up')
    expect(rewardsOn('purchase')).toBe('rewards on the friend’s first purchase')
    expect(rewardsOn('subscription')).toBe('rewards on the friend’s subscription')
  })
})
