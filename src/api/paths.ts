// Where the referrer's calls go: shared by the tracking part, which sends them ahead on a page
// with a panel, and the later part, which reads their answers (or sends them itself).

/** The campaign asked for, or (no id) the newest active one. */
export const campaignPath = (id: string | undefined) =>
  id === undefined
    ? '/v1/campaigns?status=active&limit=1'
    : `/v1/campaigns/${encodeURIComponent(id)}`

export const LINKS_PATH = '/v1/links'

/**
 * The link request's body; `userToken` only where there is one. `visitorId`: the browser asking
 * (an extension, docs/CONTRACT.md): the service counts nothing this visitor does through the link.
 */
export const linkBody = (
  campaignId: string,
  referrerId: string,
  userToken?: string,
  visitorId?: string,
) => ({
  campaignId,
  referrerId,
  ...(userToken === undefined ? {} : { userToken }),
  ...(visitorId === undefined ? {} : { visitorId }),
})
