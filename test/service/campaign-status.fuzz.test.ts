// Property-based tests of the campaign status table (fast-check): for any sequence of patches,
// the status follows CONTRACT.md's state table, updatedAt moves exactly when the status changes,
// and public keys see active campaigns only. FUZZ_RUNS sets the number of runs
// (test/support/fuzz.ts).

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Campaign } from '../../demo/service/schemas.ts'
import { fuzzOptions, fuzzTimeout } from '../support/fuzz.ts'
import { ACME, fuzzCampaign, NO_LIMITS } from './fuzz-world.ts'
import { errorOf, setup } from './helpers.ts'

type Status = 'active' | 'paused' | 'archived'
const NEXT: Record<Status, readonly Status[]> = {
  active: ['paused', 'archived'],
  paused: ['active', 'archived'],
  archived: [],
}

describe('campaign status', () => {
  it(
    'follows the state table for any sequence of patches; public keys see active campaigns only',
    async () => {
      const move = fc.record({
        status: fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom<Status>('active', 'paused', 'archived') },
          { weight: 1, arbitrary: fc.constantFrom('deleted', 'ACTIVE', '') },
        ),
        waitMs: fc.constantFrom(0, 0, 1, 1000),
      })
      await fc.assert(
        fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 8 }), async (moves) => {
          const { call, clock } = setup(NO_LIMITS)
          const made = await call<Campaign>('POST', '/v1/campaigns', {
            key: ACME.skTest,
            body: fuzzCampaign(),
          })
          const id = made.body.id
          let status: Status = 'active'
          let updatedAt = (await call<Campaign>('GET', `/v1/campaigns/${id}`, { key: ACME.skTest }))
            .body.updatedAt
          for (const { status: next, waitMs } of moves) {
            clock.advance(waitMs)
            const answer = await call('PATCH', `/v1/campaigns/${id}`, {
              key: ACME.skTest,
              body: { status: next },
            })
            const known = next === 'active' || next === 'paused' || next === 'archived'
            if (!known) {
              expect(answer.status).toBe(400)
              expect(errorOf(answer).code).toBe('parameter_invalid')
            } else if (next === status || NEXT[status].includes(next)) {
              expect(answer.status).toBe(200)
            } else {
              expect(answer.status).toBe(409)
              expect(errorOf(answer).code).toBe('invalid_state_transition')
            }
            const changed = answer.status === 200 && next !== status
            if (answer.status === 200) status = next as Status

            const shown = await call<Campaign>('GET', `/v1/campaigns/${id}`, { key: ACME.skTest })
            expect(shown.body.status).toBe(status)
            if (changed)
              expect(Date.parse(shown.body.updatedAt)).toBeGreaterThan(Date.parse(updatedAt))
            else expect(shown.body.updatedAt).toBe(updatedAt)
            updatedAt = shown.body.updatedAt

            const publicDetail = await call('GET', `/v1/campaigns/${id}`, { key: ACME.pkTest })
            expect(publicDetail.status).toBe(status === 'active' ? 200 : 404)
            const publicList = await call<{ data: { id: string }[] }>('GET', '/v1/campaigns', {
              key: ACME.pkTest,
            })
            expect(publicList.body.data.some((campaign) => campaign.id === id)).toBe(
              status === 'active',
            )
            const link = await call('POST', '/v1/links', {
              key: ACME.pkTest,
              body: { campaignId: id, referrerId: 'user_status' },
            })
            if (status === 'active') expect([200, 201]).toContain(link.status)
            else expect(errorOf(link).code).toBe('campaign_not_active')
          }
        }),
        fuzzOptions,
      )
    },
    fuzzTimeout(20),
  )
})
