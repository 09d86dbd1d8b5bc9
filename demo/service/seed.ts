// The demo data every developer, test and QA session starts with (CONTRACT.md).

import { buildCampaign } from './campaigns.ts'
import { HOUR } from './clock.ts'
import type { KeyRegistry } from './keys.ts'
import type { Store } from './store.ts'

export const DEMO_ORGS = ['org_acme', 'org_globex'] as const

export const DEMO_KEYS = {
  acme: {
    pkTest: 'pk_test_acme',
    skTest: 'sk_test_acme',
    pkLive: 'pk_live_acme',
    skLive: 'sk_live_acme',
  },
  globex: {
    pkTest: 'pk_test_globex',
    skTest: 'sk_test_globex',
    pkLive: 'pk_live_globex',
    skLive: 'sk_live_globex',
  },
  /** A key of org_acme rolled 25 hours before the service started: it answers 401 expired_api_key. */
  acmeRolled: 'sk_test_acmeold',
} as const

/** The seeded active campaign of each organization's test mode. */
export const DEMO_CAMPAIGNS = {
  acme: 'camp_acmeFriendsAndFamily',
  globex: 'camp_globexInviteAFriend',
} as const

export function seedDemoData(store: Store, keys: KeyRegistry, now: number) {
  for (const org of ['acme', 'globex'] as const) {
    for (const kind of ['pk', 'sk'] as const) {
      for (const mode of ['test', 'live'] as const) {
        keys.add(`${kind}_${mode}_${org}`, { org: `org_${org}`, mode, kind })
      }
    }
  }
  keys.add(DEMO_KEYS.acmeRolled, {
    org: 'org_acme',
    mode: 'test',
    kind: 'sk',
    expiresAt: now - HOUR,
  })

  store.insertCampaign(
    { org: 'org_acme', mode: 'test' },
    buildCampaign(
      {
        name: 'Acme friends & family',
        description: 'Give $10, get $10 in Acme credit.',
        rewardTrigger: 'signup',
        referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
        // Extension: the code the friend uses at checkout, which the QA page shows.
        referredReward: { type: 'credit', amount: 10, currency: 'USD', promotionCode: 'FRIEND10' },
        limits: { maxReferralsPerUser: 50 },
        attributionWindow: '30d',
      },
      DEMO_CAMPAIGNS.acme,
      now,
    ),
  )
  store.insertCampaign(
    { org: 'org_globex', mode: 'test' },
    buildCampaign(
      {
        name: 'Globex invite a friend',
        description: 'Invite a friend: you get €20, they get €15.',
        rewardTrigger: 'signup',
        referrerReward: { type: 'credit', amount: 20, currency: 'EUR' },
        referredReward: { type: 'credit', amount: 15, currency: 'EUR' },
        attributionWindow: '7d',
      },
      DEMO_CAMPAIGNS.globex,
      now,
    ),
  )
}
