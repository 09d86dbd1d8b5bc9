// Contract tests for /v1/campaigns against prototype pollution: __proto__, constructor and
// prototype keys in a create or patch body are refused and leave Object.prototype untouched.

import { describe, expect, test } from 'vitest'
import { expectError, minimalBody, SK, world } from './campaign-world.ts'
import { DEMO_CAMPAIGNS, MINUTE } from './helpers.ts'

describe('prototype pollution', () => {
  const REQUIRED =
    '"name":"Sneaky","rewardTrigger":"signup","referredReward":{"type":"credit","amount":1}'
  const REWARD = '"type":"credit","amount":1'

  const createBodies: Array<[string, string]> = [
    ['__proto__', `{${REQUIRED},"referrerReward":{${REWARD}},"__proto__":{"polluted":"yes"}}`],
    [
      'constructor',
      `{${REQUIRED},"referrerReward":{${REWARD}},"constructor":{"prototype":{"polluted":"yes"}}}`,
    ],
    ['prototype', `{${REQUIRED},"referrerReward":{${REWARD}},"prototype":{"polluted":"yes"}}`],
    [
      'referrerReward.__proto__',
      `{${REQUIRED},"referrerReward":{${REWARD},"__proto__":{"polluted":"yes"}}}`,
    ],
    [
      'referrerReward.constructor',
      `{${REQUIRED},"referrerReward":{${REWARD},"constructor":{"prototype":{"polluted":"yes"}}}}`,
    ],
    [
      'referrerReward.prototype',
      `{${REQUIRED},"referrerReward":{${REWARD},"prototype":{"polluted":"yes"}}}`,
    ],
    [
      'limits.__proto__',
      `{${REQUIRED},"referrerReward":{${REWARD}},"limits":{"__proto__":{"polluted":"yes"}}}`,
    ],
    [
      'limits.constructor',
      `{${REQUIRED},"referrerReward":{${REWARD}},"limits":{"constructor":{"prototype":{"polluted":"yes"}}}}`,
    ],
    [
      'limits.prototype',
      `{${REQUIRED},"referrerReward":{${REWARD}},"limits":{"prototype":{"polluted":"yes"}}}`,
    ],
  ]

  const patchBodies: Array<[string, string]> = [
    ['__proto__', '{"__proto__":{"polluted":"yes","status":"archived"}}'],
    ['constructor', '{"constructor":{"prototype":{"polluted":"yes"}}}'],
    ['prototype', '{"prototype":{"polluted":"yes"}}'],
    ['referrerReward.__proto__', '{"referrerReward":{"__proto__":{"amount":999}}}'],
    [
      'referrerReward.constructor',
      '{"referrerReward":{"constructor":{"prototype":{"polluted":"yes"}}}}',
    ],
    ['referrerReward.prototype', '{"referrerReward":{"prototype":{"amount":999}}}'],
    ['referredReward.__proto__', '{"referredReward":{"__proto__":{"currency":"EUR"}}}'],
    ['limits.__proto__', '{"limits":{"__proto__":{"maxReferralsPerUser":1}}}'],
    ['limits.constructor', '{"limits":{"constructor":{"prototype":{"polluted":"yes"}}}}'],
    ['limits.prototype', '{"limits":{"prototype":{"maxReferralsPerUser":1}}}'],
  ]

  const prototypeIsClean = (names: string[]) => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(names)
    const probe: Record<string, unknown> = {}
    expect(probe.polluted).toBeUndefined()
    expect(probe.amount).toBeUndefined()
    expect(probe.status).toBeUndefined()
    expect(probe.maxReferralsPerUser).toBeUndefined()
  }

  test.each(createBodies)(
    'create with %s is refused with 400 and creates nothing',
    async (param, raw) => {
      const names = Object.getOwnPropertyNames(Object.prototype).sort()
      const { call, count } = world()
      const answer = await call('POST', '/v1/campaigns', { key: SK, body: raw })
      expectError(answer, 400, 'parameter_unknown', param)
      prototypeIsClean(names)
      expect(await count()).toBe(1)
    },
  )

  test.each(patchBodies)(
    'patch with %s is refused with 400 and changes nothing',
    async (param, raw) => {
      const names = Object.getOwnPropertyNames(Object.prototype).sort()
      const { patch, detail, clock } = world()
      const before = await detail(DEMO_CAMPAIGNS.acme)
      clock.advance(MINUTE)
      expectError(await patch(DEMO_CAMPAIGNS.acme, raw), 400, 'parameter_unknown', param)
      prototypeIsClean(names)
      expect(await detail(DEMO_CAMPAIGNS.acme)).toEqual(before)
      // A fresh campaign built after the attempt carries no smuggled defaults either.
      const other = world()
      const fresh = await other.detail((await other.create(minimalBody())).id)
      expect(fresh.limits).toEqual({ maxReferralsPerUser: null, maxReferralsPerDay: null })
      expect(fresh.referrerReward).toEqual({ type: 'credit', amount: 1, currency: 'USD' })
    },
  )
})
