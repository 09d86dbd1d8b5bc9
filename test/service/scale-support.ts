// What the scale tests share: a store that counts what its answers hand out, and records of
// other referrers and users put straight into it.

import type { Scope } from '../../demo/service/keys.ts'
import { createMemoryStore, type Store } from '../../demo/service/store.ts'
import { DAY } from './helpers.ts'

export const ACME: Scope = { org: 'org_acme', mode: 'test' }

/** Conversions of other referrers and users, put straight into the store. */
export function storeConversions(store: Store, campaignId: string, count: number, at: number) {
  for (let i = 0; i < count; i++) {
    store.addConversion(ACME, {
      campaignId,
      referrerId: `stored_referrer_${i % 300}`,
      userId: `stored_user_${i}`,
      at: at - (i % 2) * DAY, // half of them today, half yesterday
      code: `storedCode${i % 300}`,
      visitorId: `stored_visitor_${i}`,
      referrerReward: { amount: 5, currency: 'USD' },
    })
  }
}

/** A memory store that counts the records its answers hand out: what requests copy out of it. */
export function countingStore() {
  const base = createMemoryStore()
  let handedOut = 0
  const counted = Object.fromEntries(
    Object.entries(base).map(([name, method]: [string, (...args: unknown[]) => unknown]) => [
      name,
      (...args: unknown[]) => {
        const answer = method(...args)
        if (Array.isArray(answer)) handedOut += answer.length
        else if (typeof answer === 'object' && answer !== null) handedOut += 1
        return answer
      },
    ]),
  ) as unknown as Store
  return { store: counted, handedOut: () => handedOut }
}
