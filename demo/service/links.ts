import { randomBytes, randomInt } from 'node:crypto'
import { Hono } from 'hono'
import { type Clock, iso } from './clock.ts'
import { conflict, notFound } from './errors.ts'
import { type AppEnv, jsonBody, requireObject } from './http.ts'
import type { KeyRegistry } from './keys.ts'
import { CODE_PATTERN, type Link, LinkCreate } from './schemas.ts'
import { disownClicks } from './self-referral.ts'
import type { Store } from './store.ts'
import { linkSummary } from './summary.ts'
import { userTokenMismatch, userTokenRequired, verifyUserToken } from './user-tokens.ts'
import { parseOrThrow } from './validate.ts'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const CODE_LENGTH = 10

/** The request header that carries a user token where there is no body. */
export const USER_TOKEN_HEADER = 'Referral-User-Token'

function newCode(store: Store): string {
  for (;;) {
    let code = ''
    for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)]
    if (!store.codeTaken(code)) return code
  }
}

export function linkRoutes(store: Store, clock: Clock, keys: KeyRegistry) {
  const routes = new Hono<AppEnv>()

  const missingLink = () =>
    notFound('No link with that code in this organization and mode.', 'code')

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
    // A secret key may act for any user; a public key proves who it acts for with a token when
    // the campaign asks for one, and a token it sends is checked whether asked for or not.
    if (key.kind === 'pk') {
      if (input.userToken === undefined) {
        if (campaign.requireUserToken) {
          throw userTokenRequired('body', `Campaign ${campaign.id} requires a user token.`)
        }
      } else {
        const user = await verifyUserToken(input.userToken, key, keys, clock.now(), 'body')
        if (user.userId !== input.referrerId) throw userTokenMismatch('body', 'referrerId')
      }
    }
    const existing = store.linkByReferrer(key, campaign.id, input.referrerId)
    const link: Link = existing ?? {
      id: `link_${randomBytes(12).toString('base64url')}`,
      code: newCode(store),
      campaignId: campaign.id,
      referrerId: input.referrerId,
      createdAt: iso(clock.now()),
    }
    if (!existing) store.insertLink(key, link)
    // Extension: the browsers that asked for the link are its referrer's own; what they do
    // through it earns nothing (self-referral.ts). The answer does not show them.
    if (input.visitorId !== undefined) {
      store.addLinkVisitor(key, link.code, input.visitorId)
      disownClicks(store, key, link, input.visitorId)
    }
    return c.json(link, existing ? 200 : 201)
  })

  routes.get('/:code', (c) => {
    const code = c.req.param('code')
    const link = CODE_PATTERN.test(code) ? store.linkByCode(c.get('apiKey'), code) : undefined
    if (!link) throw missingLink()
    return c.json(link)
  })

  routes.get('/:code/summary', async (c) => {
    const key = c.get('apiKey')
    // A public key reads only its own referrer's results, proven by that referrer's token.
    let userId: string | undefined
    if (key.kind === 'pk') {
      const token = c.req.header(USER_TOKEN_HEADER)
      if (token === undefined || token === '') {
        throw userTokenRequired('header', "A public key reads a link's summary with a user token.")
      }
      userId = (await verifyUserToken(token, key, keys, clock.now(), 'header')).userId
    }
    const code = c.req.param('code')
    const link = CODE_PATTERN.test(code) ? store.linkByCode(key, code) : undefined
    const campaign = link && store.campaign(key, link.campaignId)
    if (!link || !campaign) throw missingLink()
    if (userId !== undefined && userId !== link.referrerId) {
      throw userTokenMismatch('header', "this link's referrer")
    }
    return c.json(linkSummary(store, key, link, campaign))
  })

  return routes
}
