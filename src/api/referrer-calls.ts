// The calls the referrer's part makes: the campaign and the link. Each answer is checked here,
// whether this part sent the request or the script tag's tracking part sent it ahead (`sent`,
// the same request's raw answer), so the tracking part carries no campaign or link parser.
import { type ApiClient, anything, expectShape } from './client.ts'
import { campaignPath, LINKS_PATH, linkBody } from './paths.ts'
import { parseLink, parsePublicCampaign, parsePublicCampaignList } from './referrer-wire.ts'
import type { Link, PublicCampaign } from './wire.ts'

/** A request already on its way: its answer, not yet checked. */
export type SentRequest = Promise<unknown>

/* @__NO_SIDE_EFFECTS__ */
export function referrerCalls(api: Pick<ApiClient, 'request'>) {
  return {
    /** The campaign asked for, or the newest active one (null when there is none). */
    async campaign(id: string | undefined, sent?: SentRequest): Promise<PublicCampaign | null> {
      const path = campaignPath(id)
      const answer = await (sent ?? api.request('GET', path, anything))
      return id === undefined
        ? (expectShape(parsePublicCampaignList, answer, `GET ${path}`).data[0] ?? null)
        : expectShape(parsePublicCampaign, answer, `GET ${path}`)
    },
    /** `userToken`: the referrer's token, where the campaign requires one (never logged). */
    async createLink(
      campaignId: string,
      referrerId: string,
      userToken?: string,
      sent?: SentRequest,
    ): Promise<Link> {
      const answer = await (sent ??
        api.request('POST', LINKS_PATH, anything, linkBody(campaignId, referrerId, userToken)))
      return expectShape(parseLink, answer, `POST ${LINKS_PATH}`)
    },
  }
}

export type ReferrerCalls = ReturnType<typeof referrerCalls>
