// The script tag's handle on the later part of the core (campaign, link, banner state, stores).
// The tracking file does not carry it: the UI file brings it on a page with a panel or banner,
// the link file on the first getLink() elsewhere. Meanwhile calls wait and run in the order
// they were made; the requests the later part will need (the campaign, and the link when the
// campaign and the user are known) start at once, not after its file arrives.
import { anything } from '../api/client.ts'
import { campaignPath, LINKS_PATH, linkBody } from '../api/paths.ts'
import type { SentRequest } from '../api/referrer-calls.ts'
import { extrasOptions } from '../core/create-referral.ts'
import type { ExtrasOptions } from '../core/extras.ts'
import { checkOption } from '../core/options.ts'
import { linkCacheName } from '../core/persisted.ts'
import type { ReferralLink } from '../core/stores.ts'
import type { Tracker } from '../core/tracker.ts'
import type { ReferralInternals, ReferralOptions } from '../core/types.ts'
import { own } from '../shared/own.ts'
import { loadSibling, type Part } from './siblings.ts'

export const LINK_FILE = 'referral-widget-link.js'

export interface Later {
  identify(userId: string | null | undefined, identity?: { token?: string | undefined }): void
  getLink(): Promise<ReferralLink>
  /** flush(), then the referrer's results asked for again where the later part is there. */
  flush(): Promise<void>
  /** Loads a part (the UI file for a panel), attaching the core's later part if not yet done. */
  load(name: 'ui' | 'link', file: string): Promise<{ part: Part; referral: ReferralInternals }>
}

export function createLater(
  tracker: Tracker,
  options: ReferralOptions,
  script: { src: string; pinned: boolean },
): Later {
  const { core } = tracker
  // Until the later part is attached, the identified user (and their token) is only remembered here.
  let userId = options.userId
  let userToken = options.userToken
  let referral: Promise<ReferralInternals> | undefined

  /** Sends what the later part will ask for first, and says where to find the answers. */
  function prefetch(): ExtrasOptions {
    const campaignId = options.campaignId
    // Sent as they are; the later part checks the answers.
    const campaign = core.api.request('GET', campaignPath(campaignId), anything)
    campaign.catch(() => {}) // read (and reported) by the later part
    const user = userId
    const token = userToken
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
    return own({
      ...extrasOptions({ ...options, userId, userToken }),
      campaign: 'on-demand',
      prefetched: campaign,
      // Taken once, and only for the campaign, user and token it was sent with.
      prefetchedLink(id, forUser, withToken) {
        const sent = id === campaignId && forUser === user && withToken === token ? link : undefined
        link = undefined
        return sent
      },
    })
  }

  function load(name: 'ui' | 'link', file: string) {
    const loaded = loadSibling(name, file, script.src, script.pinned)
    if (!referral) {
      const extras = prefetch()
      const attached = loaded.then((part) => part.attach(tracker, extras))
      // A file that failed to load is asked for again by the next call.
      attached.catch(() => {
        if (referral === attached) referral = undefined
      })
      referral = attached
    }
    const ready = referral
    return loaded.then(async (part) => ({ part, referral: await ready }))
  }

  const attached = () => referral ?? load('link', LINK_FILE).then((loaded) => loaded.referral)

  return {
    load,
    identify(id, identity) {
      if (id !== null && id !== undefined) checkOption('userId', id)
      const token = identity?.token
      if (token !== undefined) checkOption('userToken', token)
      // Until the later part is attached, as it would: a token is one user's.
      const remember = () => {
        if (token !== undefined || id !== userId) userToken = token
        userId = id ?? undefined
      }
      // Its file on the way: applied in order once it runs, or kept for the next try if it fails.
      if (referral) void attached().then((core) => core.identify(id, identity), remember)
      else remember()
    },
    getLink: () => attached().then((core) => core.getLink()),
    async flush() {
      await tracker.flush()
      // Never loads the later part for this: only a page that has it shows results.
      void referral?.then(
        (core) => core.refreshSummary(),
        () => {},
      )
    },
  }
}
