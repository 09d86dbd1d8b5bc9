// The campaign the panel shows: rendered from the cache at once, revalidated behind it.

import type { ReferrerCalls, SentRequest } from '../api/referrer-calls.ts'
import { attributionWindowDays, parsePublicCampaign } from '../api/referrer-wire.ts'
import type { PublicCampaign } from '../api/wire.ts'
import { ApiError } from '../shared/errors.ts'
import { toJson } from '../shared/json.ts'
import { object } from '../shared/parse.ts'
import { DEFAULT_ATTRIBUTION_DAYS } from './attribution.ts'
import { v } from './persisted.ts'
import type { ReferralStores } from './stores.ts'
import type { Core } from './tracker.ts'

/** The campaign answer already asked for (by the script tag, before this part arrived). */
export type CampaignRequest = SentRequest

/** The campaign as stored: rendered from at once on the next visit. */
export const StoredCampaign = /* @__PURE__ */ object({ v, campaign: parsePublicCampaign })

/* @__NO_SIDE_EFFECTS__ */
export function createCampaign(options: {
  core: Core
  stores: ReferralStores
  calls: ReferrerCalls
  campaignId: string | undefined
  /** The campaign is settled (or changed): the link follows it. */
  onSettled: () => void
}) {
  const { core, stores } = options
  const cacheName = `campaign:${options.campaignId ?? 'newest'}`
  let wanted = false
  /** When the service last answered for it (device ms), to tell a restored page's copy is old. */
  let answeredAt = 0

  function set(campaign: PublicCampaign | null) {
    const before = stores.$campaign.get()
    const wasSettled = before.status === 'ready' || before.status === 'empty'
    core.attribution.setWindowDays(
      campaign ? attributionWindowDays(campaign.attributionWindow) : DEFAULT_ATTRIBUTION_DAYS,
    )
    if (campaign) {
      if (before.status !== 'ready' || toJson(before.campaign) !== toJson(campaign)) {
        stores.$campaign.set({ status: 'ready', campaign })
      }
    } else if (before.status !== 'empty') {
      stores.$campaign.set({ status: 'empty' })
    }
    if (!wasSettled) core.events.emit('ready', { campaign })
    core.shareAttribution()
    options.onSettled()
  }

  async function load(prefetched?: CampaignRequest) {
    const cached = core.persisted.read(StoredCampaign, cacheName)
    // Render from cache at once; revalidate behind it.
    if (cached && stores.$campaign.get().status !== 'ready') set(cached.campaign)
    try {
      // The campaign asked for, or the newest active one; the request sent ahead if there is one.
      const campaign = await options.calls.campaign(options.campaignId, prefetched)
      if (core.isDestroyed()) return
      answeredAt = core.now()
      if (campaign && campaign.status === 'active') {
        core.persisted.write(cacheName, { campaign })
        set(campaign)
      } else {
        core.persisted.remove(cacheName)
        set(null)
      }
    } catch (error) {
      if (core.isDestroyed() || !(error instanceof ApiError)) return
      // Only the service's own 404 says there is no such campaign.
      if (error.status === 404 && !error.retryable) {
        core.persisted.remove(cacheName)
        set(null)
      } else if (!cached) {
        stores.$campaign.set({ status: 'error', error })
        core.fail(error)
      }
    }
  }

  return {
    /** Starts fetching the campaign (once); `prefetched` is an answer already on its way. */
    need(prefetched?: CampaignRequest) {
      if (wanted || core.isDestroyed()) return
      wanted = true
      void load(prefetched)
    },
    /** Back online after a failed first load: try again. */
    retry() {
      if (wanted && stores.$campaign.get().status === 'error') void load()
    },
    /**
     * The page was shown again from the back/forward cache: a campaign older than `staleMs` is
     * asked for again, as a new page load would (shown as it is meanwhile).
     */
    revalidate(staleMs: number) {
      if (wanted && core.now() - answeredAt > staleMs) void load()
    },
  }
}
