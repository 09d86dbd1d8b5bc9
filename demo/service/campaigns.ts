import { randomBytes } from 'node:crypto'
import { Hono } from 'hono'
import { type Clock, iso } from './clock.ts'
import { conflict, invalid, notFound, secretKeyRequired } from './errors.ts'
import { type AppEnv, jsonBody, requireObject, requireSecretKey } from './http.ts'
import type { Scope } from './keys.ts'
import {
  type Campaign,
  CampaignCreate,
  CampaignPatch,
  type CampaignStatus,
  ListQuery,
  NOT_UPDATABLE_FIELDS,
  type PublicCampaign,
} from './schemas.ts'
import type { Store } from './store.ts'
import { parseOrThrow } from './validate.ts'

export const newCampaignId = () => `camp_${randomBytes(12).toString('base64url')}`

const LIST_FIELDS = [
  'id',
  'name',
  'status',
  'rewardTrigger',
  'referrerReward',
  'referredReward',
  'createdAt',
] as const
const PUBLIC_FIELDS = [...LIST_FIELDS, 'attributionWindow'] as const
/** The seed's field table: the create response carries these (stats are detail only). */
const CREATE_FIELDS = ['id', 'name', 'status', 'createdAt'] as const

function pick<T, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>
  for (const key of keys) picked[key] = value[key]
  return picked
}

/** What a public key sees of a campaign. */
export const publicView = (campaign: Campaign): PublicCampaign => pick(campaign, PUBLIC_FIELDS)
/** The fields the seed lists for a secret key's list. */
const listView = (campaign: Campaign) => pick(campaign, LIST_FIELDS)

/** Allowed status moves; staying in place is always allowed (a no-op). */
const NEXT_STATUSES: Record<CampaignStatus, readonly CampaignStatus[]> = {
  active: ['paused', 'archived'],
  paused: ['active', 'archived'],
  archived: [],
}

export function buildCampaign(input: CampaignCreate, id: string, now: number): Campaign {
  const at = iso(now)
  // Extension: a campaign without a promotion code leaves the key out (`null` is none).
  const { promotionCode, ...referredReward } = input.referredReward
  return {
    id,
    name: input.name,
    description: input.description ?? '',
    status: 'active',
    rewardTrigger: input.rewardTrigger,
    referrerReward: { ...input.referrerReward, currency: input.referrerReward.currency ?? 'USD' },
    referredReward: {
      ...referredReward,
      currency: referredReward.currency ?? 'USD',
      ...(promotionCode ? { promotionCode } : {}),
    },
    limits: {
      maxReferralsPerUser: input.limits?.maxReferralsPerUser ?? null,
      maxReferralsPerDay: input.limits?.maxReferralsPerDay ?? null,
    },
    attributionWindow: input.attributionWindow ?? '30d',
    requireUserToken: input.requireUserToken ?? false,
    stats: {
      totalClicks: 0,
      totalConversions: 0,
      totalRewardsIssued: 0,
      selfReferrals: 0,
      reversedConversions: 0,
    },
    createdAt: at,
    updatedAt: at,
  }
}

/** Applies a validated patch: a deep partial merge of the nested objects. */
function applyPatch(campaign: Campaign, patch: CampaignPatch): Campaign {
  const next = structuredClone(campaign)
  if (patch.name !== undefined) next.name = patch.name
  if (patch.description !== undefined) next.description = patch.description
  if (patch.status !== undefined) next.status = patch.status
  if (patch.attributionWindow !== undefined) next.attributionWindow = patch.attributionWindow
  if (patch.requireUserToken !== undefined) next.requireUserToken = patch.requireUserToken
  for (const side of ['referrerReward', 'referredReward'] as const) {
    const reward = patch[side]
    if (reward?.type !== undefined) next[side].type = reward.type
    if (reward?.amount !== undefined) next[side].amount = reward.amount
    if (reward?.currency !== undefined) next[side].currency = reward.currency
  }
  // Extension: a string sets the friend's promotion code, `null` removes it.
  const promotionCode = patch.referredReward?.promotionCode
  if (promotionCode === null) delete next.referredReward.promotionCode
  else if (promotionCode !== undefined) next.referredReward.promotionCode = promotionCode
  if (patch.limits?.maxReferralsPerUser !== undefined) {
    next.limits.maxReferralsPerUser = patch.limits.maxReferralsPerUser
  }
  if (patch.limits?.maxReferralsPerDay !== undefined) {
    next.limits.maxReferralsPerDay = patch.limits.maxReferralsPerDay
  }
  return next
}

export function campaignRoutes(store: Store, clock: Clock) {
  const routes = new Hono<AppEnv>()

  const find = (scope: Scope, id: string) => {
    const campaign = store.campaign(scope, id)
    if (!campaign) throw notFound('No such campaign in this organization and mode.', 'id')
    return campaign
  }

  routes.get('/', (c) => {
    const key = c.get('apiKey')
    const query = parseOrThrow(ListQuery, c.req.query())
    if (key.kind === 'pk' && query.status !== undefined && query.status !== 'active') {
      throw secretKeyRequired(
        `Public keys see active campaigns only; listing ${query.status} campaigns needs a secret key.`,
      )
    }
    const status = key.kind === 'pk' ? 'active' : query.status
    // A public key's cursor moves over active campaigns only, so it cannot probe for others.
    const stored = store.campaigns(key)
    const all =
      key.kind === 'pk' ? stored.filter((campaign) => campaign.status === 'active') : stored
    const matches = (campaign: Campaign) => status === undefined || campaign.status === status
    let rest = all
    if (query.startingAfter !== undefined) {
      const position = all.findIndex((campaign) => campaign.id === query.startingAfter)
      if (position === -1) {
        throw invalid(
          'parameter_invalid',
          'startingAfter names no campaign in this list.',
          'startingAfter',
        )
      }
      rest = all.slice(position + 1)
    }
    const remaining = rest.filter(matches)
    const limit = query.limit ?? 20
    return c.json({
      data: remaining
        .slice(0, limit)
        .map((campaign) => (key.kind === 'pk' ? publicView(campaign) : listView(campaign))),
      total: all.filter(matches).length,
      hasMore: remaining.length > limit,
    })
  })

  routes.post('/', async (c) => {
    requireSecretKey(c, 'Creating a campaign')
    const input = parseOrThrow(CampaignCreate, requireObject(await jsonBody(c)))
    const campaign = buildCampaign(input, newCampaignId(), clock.now())
    store.insertCampaign(c.get('apiKey'), campaign)
    return c.json(pick(campaign, CREATE_FIELDS), 201)
  })

  routes.get('/:id', (c) => {
    const key = c.get('apiKey')
    const campaign = find(key, c.req.param('id'))
    if (key.kind === 'pk') {
      // A public key cannot tell a paused campaign from a missing one.
      if (campaign.status !== 'active')
        throw notFound('No such campaign in this organization and mode.', 'id')
      return c.json(publicView(campaign))
    }
    return c.json(campaign)
  })

  routes.patch('/:id', async (c) => {
    requireSecretKey(c, 'Updating a campaign')
    const key = c.get('apiKey')
    const body = requireObject(await jsonBody(c))
    const fixed = NOT_UPDATABLE_FIELDS.find((field) => Object.hasOwn(body, field))
    if (fixed !== undefined) {
      throw invalid('parameter_not_updatable', `${fixed} cannot be changed.`, fixed)
    }
    const patch = parseOrThrow(CampaignPatch, body)
    const campaign = find(key, c.req.param('id'))
    if (
      patch.status !== undefined &&
      patch.status !== campaign.status &&
      !NEXT_STATUSES[campaign.status].includes(patch.status)
    ) {
      throw conflict(
        'invalid_state_transition',
        `A campaign cannot move from ${campaign.status} to ${patch.status}.`,
        'status',
      )
    }
    const next = applyPatch(campaign, patch)
    if (JSON.stringify(next) !== JSON.stringify(campaign)) {
      // Each accepted change moves updatedAt forward, even twice within one millisecond.
      next.updatedAt = iso(Math.max(clock.now(), Date.parse(campaign.updatedAt) + 1))
      store.saveCampaign(key, next)
    }
    const changed = Object.fromEntries(
      Object.keys(patch).map((field) => [field, next[field as keyof CampaignPatch]]),
    )
    return c.json({ id: next.id, updatedAt: next.updatedAt, ...changed })
  })

  return routes
}
