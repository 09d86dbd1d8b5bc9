// Several widgets on one page share one core per key (one queue, one sender, one capture of the
// referral code); the core is destroyed when the last of them goes.
import { createReferralInternals } from '../core/create-referral.ts'
import type { ReferralInternals as Referral, ReferralOptions } from '../core/types.ts'
import { warnOnce } from '../shared/log.ts'

const cores = new Map<string, { referral: Referral; users: number; options: ReferralOptions }>()

export function acquireReferral(options: ReferralOptions): Referral {
  const id = `${options.publicKey}\u0000${options.apiBase}`
  const shared = cores.get(id)
  if (shared) {
    shared.users += 1
    if (options.campaignId !== shared.options.campaignId) {
      warnOnce('Widgets with one key share one core: the first widget’s campaignId is used.')
    }
    if (options.userId !== undefined)
      shared.referral.identify(options.userId, { token: options.userToken })
    return shared.referral
  }
  const referral = createReferralInternals(options)
  cores.set(id, { referral, users: 1, options })
  return referral
}

export function releaseReferral(referral: Referral) {
  for (const [id, shared] of cores) {
    if (shared.referral !== referral) continue
    shared.users -= 1
    if (shared.users === 0) {
      cores.delete(id)
      referral.destroy()
    }
  }
}
