// The calls the referrer's part makes: the campaign and the link (the checkout file asks for the
// campaign alone, for its promotion code). Each answer is checked here,
// whether this part sent the request or the script tag's tracking part sent it ahead (`sent`,
// the same request's raw answer), so the tracking part carries no campaign or link parser.
import { ApiError } from '../shared/errors.ts'
import { type ApiClient, anything, expectShape } from './client.ts'
import { campaignPath, LINKS_PATH, linkBody } from './paths.ts'
import { parseLink, parsePublicCampaign, parsePublicCampaignList } from './referrer-wire.ts'
import type { Link, PublicCampaign } from './wire.ts'

/** A request already on its way: its answer, not yet checked. */
export type SentRequest = Promise<unknown>

/** The campaign asked for, or the newest active one (null when there is none). */
export async function askCampaign(
  api: Pick<ApiClient, 'request'>,
  id: string | undefined,
  sent?: SentRequest,
): Promise<PublicCampaign | null> {
  const path = campaignPath(id)
  const answer = await (sent ?? api.request('GET', path, anything))
  return id === undefined
    ? (expectShape(parsePublicCampaignList, answer, `GET ${path}`).data[0] ?? null)
    : expectShape(parsePublicCampaign, answer, `GET ${path}`)
}

/* @__NO_SIDE_EFFECTS__ */
export function referrerCalls(api: Pick<ApiClient, 'request'>) {
  /** The service refused `visitorId` on a link request: it has only the seed's interface. */
  let seedOnly = false
  return {
    campaign: (id: string | undefined, sent?: SentRequest) => askCampaign(api, id, sent),
    /**
     * `userToken`: the referrer's token, where the campaign requires one (never logged).
     * `visitorId`: this browser's, sent where the service takes it (a service with only the
     * seed's interface refuses the field: the link is asked for again without it, and after).
     */
    async createLink(
      campaignId: string,
      referrerId: string,
      userToken?: string,
      sent?: SentRequest,
      visitorId?: string,
    ): Promise<Link> {
      const ask = () =>
        api.request(
          'POST',
          LINKS_PATH,
          anything,
          linkBody(campaignId, referrerId, userToken, seedOnly ? undefined : visitorId),
        )
      const answer = await (sent ?? ask()).catch((failure: unknown) => {
        if (!(failure instanceof ApiError) || failure.param !== 'visitorId' || seedOnly)
          throw failure
        seedOnly = true
        return ask()
      })
      return expectShape(parseLink, answer, `POST ${LINKS_PATH}`)
    },
  }
}

export type ReferrerCalls = ReturnType<typeof referrerCalls>
