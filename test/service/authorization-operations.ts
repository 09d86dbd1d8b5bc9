// The operations of the authorization matrix (authorization-matrix.test.ts): every route and
// method of the interface, the outcome it must have for each key kind in the caller's own world
// and in any other organization or mode, and what an accepted request must have done or shown.

import { expect } from 'vitest'
import type { Campaign, Link } from '../../demo/service/schemas.ts'
import {
  clickEvent,
  detail,
  emptySummary,
  ids,
  NEW_REFERRER,
  type Operation,
  ownSecretKey,
} from './authorization-worlds.ts'
import { campaignBody, PUBLIC_FIELDS } from './helpers.ts'

export const OPERATIONS: readonly Operation[] = [
  {
    label: 'GET /v1/campaigns',
    writes: false,
    targeted: true,
    request: () => ({ method: 'GET', path: '/v1/campaigns?limit=100' }),
    pk: ['200', '200'],
    sk: ['200', '200'],
    verify: ({ answer, kind, target, own }) => {
      const listed = ids(answer)
      expect(listed.includes(target.active)).toBe(own)
      // A public key sees active campaigns only, and only their public view.
      expect(listed.includes(target.paused)).toBe(own && kind === 'sk')
      if (kind === 'pk') {
        for (const item of (answer.body as { data: object[] }).data) {
          expect(Object.keys(item).sort()).toEqual(PUBLIC_FIELDS)
        }
      }
    },
  },
  {
    label: 'GET /v1/campaigns?status=paused',
    writes: false,
    targeted: true,
    request: () => ({ method: 'GET', path: '/v1/campaigns?status=paused' }),
    pk: ['403 secret_key_required', '403 secret_key_required'],
    sk: ['200', '200'],
    verify: ({ answer, target, own }) => {
      expect(ids(answer).includes(target.paused)).toBe(own)
      expect(ids(answer)).not.toContain(target.active)
    },
  },
  {
    label: 'POST /v1/campaigns',
    writes: true,
    targeted: false,
    request: () => ({
      method: 'POST',
      path: '/v1/campaigns',
      body: campaignBody('Made by matrix'),
    }),
    pk: ['403 secret_key_required', '403 secret_key_required'],
    sk: ['201', '201'],
    verify: async ({ ctx, answer, target }) => {
      const made = await detail(ctx, target, (answer.body as Campaign).id)
      expect(made.status).toBe(200)
      expect(made.body).toMatchObject({ name: 'Made by matrix', status: 'active' })
    },
  },
  {
    label: 'GET /v1/campaigns/:id (active)',
    writes: false,
    targeted: true,
    request: (target) => ({ method: 'GET', path: `/v1/campaigns/${target.active}` }),
    pk: ['200', '404 resource_missing'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, kind, target }) => {
      const shown = answer.body as Campaign
      expect(shown.id).toBe(target.active)
      if (kind === 'pk') expect(Object.keys(shown).sort()).toEqual(PUBLIC_FIELDS)
      else
        expect(shown.stats).toEqual({
          totalClicks: 0,
          totalConversions: 0,
          totalRewardsIssued: 0,
          selfReferrals: 0,
          reversedConversions: 0,
        })
    },
  },
  {
    label: 'GET /v1/campaigns/:id (paused)',
    writes: false,
    targeted: true,
    request: (target) => ({ method: 'GET', path: `/v1/campaigns/${target.paused}` }),
    // A public key cannot tell a paused campaign from a missing one.
    pk: ['404 resource_missing', '404 resource_missing'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => {
      expect(answer.body).toMatchObject({ id: target.paused, status: 'paused' })
    },
  },
  {
    label: 'PATCH /v1/campaigns/:id',
    writes: true,
    targeted: true,
    request: (target) => ({
      method: 'PATCH',
      path: `/v1/campaigns/${target.active}`,
      body: { name: 'Renamed by matrix', referrerReward: { amount: 7 } },
    }),
    pk: ['403 secret_key_required', '403 secret_key_required'],
    sk: ['200', '404 resource_missing'],
    verify: async ({ ctx, target }) => {
      const shown = await detail(ctx, target, target.active)
      expect(shown.body.name).toBe('Renamed by matrix')
      expect(shown.body.referrerReward).toEqual({ type: 'credit', amount: 7, currency: 'USD' })
    },
  },
  {
    label: 'DELETE /v1/campaigns/:id',
    writes: false,
    targeted: true,
    request: (target) => ({ method: 'DELETE', path: `/v1/campaigns/${target.active}` }),
    pk: ['405 method_not_allowed', '405 method_not_allowed'],
    sk: ['405 method_not_allowed', '405 method_not_allowed'],
  },
  {
    label: 'POST /v1/links (new referrer)',
    writes: true,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/links',
      body: { campaignId: target.active, referrerId: NEW_REFERRER },
    }),
    pk: ['201', '404 resource_missing'],
    sk: ['201', '404 resource_missing'],
    verify: async ({ ctx, answer, target }) => {
      const link = answer.body as Link
      expect(link).toMatchObject({ campaignId: target.active, referrerId: NEW_REFERRER })
      const found = await ctx.call('GET', `/v1/links/${link.code}`, { key: ownSecretKey(target) })
      expect(found.body).toEqual(link)
    },
  },
  {
    label: 'POST /v1/links (existing referrer)',
    writes: false,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/links',
      body: { campaignId: target.active, referrerId: target.link.referrerId },
    }),
    pk: ['200', '404 resource_missing'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => expect(answer.body).toEqual(target.link),
  },
  {
    label: 'POST /v1/links (paused campaign)',
    writes: true,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/links',
      body: { campaignId: target.paused, referrerId: NEW_REFERRER },
    }),
    pk: ['409 campaign_not_active', '404 resource_missing'],
    sk: ['409 campaign_not_active', '404 resource_missing'],
  },
  {
    label: 'GET /v1/links/:code',
    writes: false,
    targeted: true,
    request: (target) => ({ method: 'GET', path: `/v1/links/${target.link.code}` }),
    pk: ['200', '404 resource_missing'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => expect(answer.body).toEqual(target.link),
  },
  {
    label: 'POST /v1/links (existing referrer, with their token)',
    writes: false,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/links',
      body: { campaignId: target.active, referrerId: 'user_owner', userToken: target.token },
    }),
    pk: ['200', '404 resource_missing'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => expect(answer.body).toEqual(target.link),
  },
  {
    label: 'GET /v1/links/:code/summary (the referrer token)',
    writes: false,
    targeted: true,
    request: (target) => ({
      method: 'GET',
      path: `/v1/links/${target.link.code}/summary`,
      headers: { 'Referral-User-Token': target.token },
    }),
    // The token is checked before the link is looked up: one signed in another world is not genuine.
    pk: ['200', '401 user_token_invalid'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => expect(answer.body).toEqual(emptySummary(target)),
  },
  {
    label: 'GET /v1/links/:code/summary (no token)',
    writes: false,
    targeted: true,
    request: (target) => ({ method: 'GET', path: `/v1/links/${target.link.code}/summary` }),
    pk: ['401 user_token_required', '401 user_token_required'],
    sk: ['200', '404 resource_missing'],
    verify: ({ answer, target }) => expect(answer.body).toEqual(emptySummary(target)),
  },
  {
    label: 'POST /v1/links/:code/summary',
    writes: false,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: `/v1/links/${target.link.code}/summary`,
      body: {},
    }),
    pk: ['405 method_not_allowed', '405 method_not_allowed'],
    sk: ['405 method_not_allowed', '405 method_not_allowed'],
  },
  {
    label: 'POST /v1/events (JSON)',
    writes: true,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/events',
      body: { events: [clickEvent(target.link.code)] },
    }),
    pk: ['200 accepted', '200 rejected unknown_code'],
    sk: ['200 accepted', '200 rejected unknown_code'],
    verify: async ({ ctx, target }) => {
      expect((await detail(ctx, target, target.active)).body.stats.totalClicks).toBe(1)
    },
  },
  {
    label: 'POST /v1/events (beacon, text/plain)',
    writes: true,
    targeted: true,
    request: (target) => ({
      method: 'POST',
      path: '/v1/events',
      body: { events: [clickEvent(target.link.code)] },
      beacon: true,
    }),
    pk: ['200 accepted', '200 rejected unknown_code'],
    // A secret key must never travel in a page's beacon, whatever it would reach.
    sk: ['403 secret_key_required', '403 secret_key_required'],
    verify: async ({ ctx, target }) => {
      expect((await detail(ctx, target, target.active)).body.stats.totalClicks).toBe(1)
    },
  },
]
