import type { Reward } from '../api/wire.ts'

/** An amount in its currency for the locale: "$10", "10,50 €", "￥1,000". */
export function formatReward(reward: Reward, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: reward.currency,
      // Whole amounts read better without ".00"; currencies without minor units keep none.
      ...(Number.isInteger(reward.amount) ? { minimumFractionDigits: 0 } : {}),
    }).format(reward.amount)
  } catch {
    return `${reward.amount} ${reward.currency}`
  }
}
