// What a panel page asks for ahead of its UI file, as soon as the tracking part runs: the
// requests the later part sends first (the campaign, and the link when the campaign and the user
// are known) and the page's language's messages file (unpinned pages: pinned, the UI file loads
// it with the hash it carries), so they arrive with the UI file rather than after it. The
// tracking-and-delivery file goes without both (scripts/lib-build/runtime-plugins.ts,
// `deliveryBuiltIn`): an arrival page stays within its budget, and a panel there asks for them
// once its UI file runs.
import { anything } from '../api/client.ts'
import { campaignPath, LINKS_PATH, linkBody } from '../api/paths.ts'
import type { SentRequest } from '../api/referrer-calls.ts'
import type { ExtrasOptions } from '../core/extras.ts'
import { linkCacheName } from '../core/persisted.ts'
import type { Core } from '../core/tracker.ts'
import type { ReferralOptions } from '../core/types.ts'
import { messagesFile, pickLanguage } from '../ui/messages/languages.ts'
import { loadSibling, type Parts } from './siblings.ts'

/** Sends what the later part asks for first, and says where it finds the answers. */
export function sendAhead(core: Core, options: ReferralOptions): Partial<ExtrasOptions> {
  const { campaignId, userId: user, userToken: token } = options
  // Sent as they are; the later part checks the answers (and reports a failure).
  const campaign = core.api.request('GET', campaignPath(campaignId), anything)
  campaign.catch(() => {})
  let link: SentRequest | undefined
  if (
    campaignId !== undefined &&
    user !== undefined &&
    core.consented() &&
    core.persisted.storage.get(core.persisted.namespace + linkCacheName(campaignId, user)) === null
  ) {
    const visitorId = core.attribution.visitorId()
    link = core.api.request(
      'POST',
      LINKS_PATH,
      anything,
      linkBody(campaignId, user, token, visitorId),
    )
    link.catch(() => {})
  }
  return {
    prefetched: campaign,
    // Taken once, and only for the campaign, user and token it was sent with.
    prefetchedLink(id, forUser, withToken) {
      const sent = id === campaignId && forUser === user && withToken === token ? link : undefined
      link = undefined
      return sent
    },
  }
}

/** The page's language's messages file, asked for beside the UI file. */
export function messagesBeside(
  locale: string | undefined,
  src: string,
  pinned: boolean,
): Promise<Parts['messages']> | undefined {
  // The UI file picks it the same way (a rare miss costs it a fetch after it arrives).
  const language = pickLanguage(locale ?? navigator.language)
  if (language === 'en' || pinned) return
  const messages = loadSibling('messages', messagesFile(language), src, false)
  messages.catch(() => {}) // reported by the UI file, which shows English then
  return messages
}
