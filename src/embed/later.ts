// The script tag's handle on the later part of the core (campaign, link, banner state, stores).
// The tracking part does not carry it: the UI or banner file brings it on a page that shows one
// (fetched by the loader beside the tracking part), the link file on the first getLink()
// elsewhere. Until it is there, identify() calls wait in the command function and run in order
// once it is; getLink() brings it. On a panel page the requests the later part asks for first (the
// campaign, and the link when the campaign and the user are known) start as soon as this part
// runs, not after the UI file arrives.
import { anything } from '../api/client.ts'
import { campaignPath, LINKS_PATH, linkBody } from '../api/paths.ts'
import type { SentRequest } from '../api/referrer-calls.ts'
import type { ExtrasOptions } from '../core/extras.ts'
import { linkCacheName } from '../core/persisted.ts'
import type { Tracker } from '../core/tracker.ts'
import type { ReferralInternals, ReferralOptions } from '../core/types.ts'
import { own } from '../shared/own.ts'
import type { CommandFunction } from './commands.ts'
import { loadPart } from './part-files.ts'
import { type Part, uiFile } from './siblings.ts'

export const LINK_FILE = 'referral-widget-link.js'

export function createLater(
  tracker: Tracker,
  options: ReferralOptions,
  script: { src: string; pinned: boolean },
  commands: CommandFunction,
) {
  let later: Promise<{ part: Part; referral: ReferralInternals }> | undefined
  const { core } = tracker

  /** Sends what the later part will ask for first, and says where it finds the answers. */
  function prefetch(): Partial<ExtrasOptions> {
    const { campaignId, userId: user, userToken: token } = options
    // Sent as they are; the later part checks the answers (and reports a failure).
    const campaign = core.api.request('GET', campaignPath(campaignId), anything)
    campaign.catch(() => {})
    let link: SentRequest | undefined
    if (
      campaignId !== undefined &&
      user !== undefined &&
      core.consented() &&
      core.persisted.storage.get(core.persisted.namespace + linkCacheName(campaignId, user)) ===
        null
    ) {
      link = core.api.request('POST', LINKS_PATH, anything, linkBody(campaignId, user, token))
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

  /** The file that brings the later part: the page's UI file where it shows one, else the link file. */
  const bring = (name: 'ui' | 'link') => {
    const file = name === 'ui' ? uiFile() : LINK_FILE
    if (later) return later
    const sent = name === 'ui' ? prefetch() : {}
    later = loadPart(name, file, script, script.pinned).then((part) => {
      const referral = part.attach(
        tracker,
        own({
          ...options,
          ...sent,
          refParam: (options.refParam as string[] | undefined)?.[0] ?? 'ref',
          campaign: 'on-demand' as const,
        }),
      )
      commands.attach({
        identify: referral.identify as never,
        getLink: referral.getLink,
        // Then the referrer's results are asked for again, where the panel shows them.
        flush: async () => {
          await tracker.flush()
          referral.refreshSummary()
        },
      })
      return { part, referral }
    })
    // A file that failed to load is asked for again by the next call.
    later.catch(() => {
      later = undefined
    })
    return later
  }

  return {
    bring,
    /** getLink() before the later part is there: it brings it. */
    getLink: () =>
      bring(document.querySelector('[data-referral-widget]') ? 'ui' : 'link').then(({ referral }) =>
        referral.getLink(),
      ),
  }
}
