import { randomBytes, randomInt } from 'node:crypto'
import { Hono } from 'hono'
import { CODE_PATTERN, type Link, LinkCreate } from './schemas.ts'
import { type Clock, iso } from './clock.ts'
import { conflict, notFound } from './errors.ts'
import { type AppEnv, jsonBody, requireObject } from './http.ts'
import type { Store } from './store.ts'
import { parseOrThrow } from './validate.ts'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const CODE_LENGTH = 10

function newCode(store: Store): string {
  for (;;) {
    let code = ''
    for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)]
    if (!store.codeTaken(code)) return code
  }
}

export function linkRoutes(store: Store, clock: Clock) {
  const routes = new Hono<AppEnv>()

  routes.post('/', async (c) => {
    const key = c.get('apiKey')
    const input = parseOrThrow(LinkCreate, requireObject(await jsonBody(c)))
    const campaign = store.campaign(key, input.campaignId)
    if (!campaign) {
      throw notFound(`No campaign ${input.campaignId} in this organization and mode.`, 'campaignId')
    }
    if (campaign.status !== 'active') {
      throw conflict(
        'campaign_not_active',
        `Campaign ${campaign.id} is ${campaign.status}; links can be made for active campaigns only.`,
        'campaignId',
      )
    }
    const existing = store.linkByReferrer(key, campaign.id, input.referrerId)
    if (existing) return c.json(existing, 200)
    const link: Link = {
      id: `link_${randomBytes(12).toString('base64url')}`,
      code: newCode(store),
      campaignId: campaign.id,
      referrerId: input.referrerId,
      createdAt: iso(clock.now()),
    }
    store.insertLink(key, link)
    return c.json(link, 201)
  })

  routes.get('/:code', (c) => {
    const code = c.req.param('code')
    const link = CODE_PATTERN.test(code) ? store.linkByCode(c.get('apiKey'), code) : undefined
    if (!link) throw notFound('No link with that code in this organization and mode.', 'code')
    return c.json(link)
  })

  return routes
}
