// The world the service's property tests send their requests into: a service with rate limits
// out of the way, a store that notes every write with its scope, data in place for generated
// requests to hit (paused, archived, live-mode and purchase campaigns, links; their ids fill
// the placeholders), and the sending of a generated request from a fixed peer.

import { expect } from 'vitest'
import type { Scope } from '../../demo/service/keys.ts'
import type { Campaign, Link } from '../../demo/service/schemas.ts'
import { createMemoryStore, type Store } from '../../demo/service/store.ts'
import type { FuzzRequest } from './fuzz-requests.ts'
import { campaignBody, DEMO_CAMPAIGNS, DEMO_KEYS, setup } from './helpers.ts'

export const ACME = DEMO_KEYS.acme
export const GLOBEX = DEMO_KEYS.globex
const PEER = '198.51.100.7'
/** Rate limits out of the way: the properties are about answers, not about 429s. */
export const NO_LIMITS = { pkRateLimit: 1e9, skRateLimit: 1e9, trustedProxies: [PEER] } as const

export type World = Awaited<ReturnType<typeof makeWorld>>

/** A store that notes every write with its scope, to see what a request changed and where. */
function journaledStore() {
  const base = createMemoryStore()
  const writes: string[] = []
  const note = (op: string, scope: Scope) => writes.push(`${op} ${scope.org}/${scope.mode}`)
  const store: Store = {
    ...base,
    insertCampaign: (scope, campaign) => {
      note('insertCampaign', scope)
      base.insertCampaign(scope, campaign)
    },
    saveCampaign: (scope, campaign) => {
      note('saveCampaign', scope)
      base.saveCampaign(scope, campaign)
    },
    insertLink: (scope, link) => {
      note('insertLink', scope)
      base.insertLink(scope, link)
    },
    markAccepted: (scope, eventId) => {
      note('markAccepted', scope)
      base.markAccepted(scope, eventId)
    },
    addClick: (scope, click) => {
      note('addClick', scope)
      base.addClick(scope, click)
    },
    addConversion: (scope, conversion) => {
      note('addConversion', scope)
      base.addConversion(scope, conversion)
    },
    addSignup: (scope, signup) => {
      note('addSignup', scope)
      base.addSignup(scope, signup)
    },
    markOrder: (scope, orderId, userId) => {
      note('markOrder', scope)
      base.markOrder(scope, orderId, userId)
    },
    addReferral: (scope, referral) => {
      note('addReferral', scope)
      base.addReferral(scope, referral)
    },
    addFirstPurchase: (scope, purchase) => {
      note('addFirstPurchase', scope)
      base.addFirstPurchase(scope, purchase)
    },
    reverseConversion: (scope, orderId, at) => {
      note('reverseConversion', scope)
      return base.reverseConversion(scope, orderId, at)
    },
    addLinkVisitor: (scope, code, visitorId) => {
      note('addLinkVisitor', scope)
      base.addLinkVisitor(scope, code, visitorId)
    },
    markSelfReferral: (scope, eventId, message) => {
      note('markSelfReferral', scope)
      base.markSelfReferral(scope, eventId, message)
    },
  }
  return { store, writes }
}

export const fuzzCampaign = (fields: Record<string, unknown> = {}) => ({
  ...campaignBody('Fuzz campaign'),
  ...fields,
})

/** A fresh service with data in place for generated requests to hit: ids fill placeholders. */
export async function makeWorld() {
  const journal = journaledStore()
  const ctx = setup({ ...NO_LIMITS, store: journal.store })
  const { call } = ctx
  const created = async (key: string, fields: Record<string, unknown> = {}) => {
    const answer = await call<Campaign>('POST', '/v1/campaigns', {
      key,
      body: fuzzCampaign(fields),
    })
    expect(answer.status).toBe(201)
    return answer.body.id
  }
  const withStatus = async (status: 'paused' | 'archived') => {
    const id = await created(ACME.skTest, { name: status })
    const patched = await call('PATCH', `/v1/campaigns/${id}`, {
      key: ACME.skTest,
      body: { status },
    })
    expect(patched.status).toBe(200)
    return id
  }
  const paused = await withStatus('paused')
  const archived = await withStatus('archived')
  const live = await created(ACME.skLive, { name: 'Live' })
  const link = await call<Link>('POST', '/v1/links', {
    key: ACME.pkTest,
    body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_owner' },
  })
  expect(link.status).toBe(201)
  // Extension: a purchase campaign, so that purchases have something to convert in.
  const bought = await created(ACME.skTest, { name: 'Purchases', rewardTrigger: 'purchase' })
  const boughtLink = await call<Link>('POST', '/v1/links', {
    key: ACME.pkTest,
    body: { campaignId: bought, referrerId: 'user_owner' },
  })
  expect(boughtLink.status).toBe(201)
  const placeholders: Record<string, string> = {
    '{bought}': boughtLink.body.code,
    '{active}': DEMO_CAMPAIGNS.acme,
    '{paused}': paused,
    '{archived}': archived,
    '{live}': live,
    '{foreign}': DEMO_CAMPAIGNS.globex,
    '{code}': link.body.code,
  }
  journal.writes.length = 0
  return { ...ctx, writes: journal.writes, placeholders, code: link.body.code }
}

const fill = (text: string, world: World) =>
  text.replace(
    /\{(active|paused|archived|live|foreign|code|bought)\}/g,
    (match) => world.placeholders[match] ?? match,
  )

export interface Sent {
  status: number
  headers: Headers
  text: string
  /** Everything the request carried, to tell an echo of the input from a leak. */
  input: string
}

export async function send(world: World, request: FuzzRequest): Promise<Sent> {
  const headers = new Headers(request.extraHeaders)
  if (request.authorization !== undefined) headers.set('Authorization', request.authorization)
  if (request.contentType !== undefined) headers.set('Content-Type', request.contentType)
  const url = `http://localhost${fill(request.path, world)}${fill(request.query, world)}`
  const hasBody =
    request.body !== undefined && !['GET', 'HEAD'].includes(request.method.toUpperCase())
  const payload =
    typeof request.body === 'string' ? fill(request.body, world) : (request.body ?? null)
  const response = await world.service.app.request(
    new Request(url, {
      method: request.method,
      headers,
      ...(hasBody ? { body: payload } : {}),
    }),
    undefined,
    { incoming: { socket: { remoteAddress: PEER } } },
  )
  const text = await response.text()
  const input = [
    request.method,
    url,
    ...headers.entries(),
    typeof payload === 'string' ? payload : '',
  ].join('\n')
  return { status: response.status, headers: response.headers, text, input }
}
