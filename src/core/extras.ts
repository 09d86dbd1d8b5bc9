// The part of the core that comes after tracking: the campaign, the referrer's link, the banner
// state and the stores the UI reads. The ESM package attaches it at once; the script tag loads
// it beside its tracking part when the page has a panel or needs a link.

import { referrerCalls, type SentRequest } from '../api/referrer-calls.ts'
import { toJson } from '../shared/json.ts'
import { createBanner } from './banner.ts'
import { type CampaignRequest, createCampaign } from './campaign.ts'
import { createDialog } from './dialog.ts'
import { browserLanguage } from './host.ts'
import { createLink } from './link.ts'
import { createStores } from './stores.ts'
import { createSummary } from './summary.ts'
import type { Tracker } from './tracker.ts'
import type { ReferralInternals, Theme } from './types.ts'
import { createUserToken, type UserTokenOptions } from './user-token.ts'

/** A page shown again from the back/forward cache asks for a campaign older than this again. */
const RESTORED_STALE_MS = 60_000

export interface ExtrasOptions extends UserTokenOptions {
  campaignId?: string | undefined
  userId?: string | undefined
  landingUrl?: string | undefined
  refParam: string
  locale?: string | undefined
  theme?: Theme | undefined
  /** `eager`: fetch the campaign now; `on-demand`: when a panel, a banner or getLink needs it. */
  campaign?: 'eager' | 'on-demand' | undefined
  /** The campaign answer the script tag already asked for. */
  prefetched?: CampaignRequest | undefined
  /** The link request the script tag already sent (campaign id and user known up front). */
  prefetchedLink?:
    | ((campaignId: string, userId: string, token: string | undefined) => SentRequest | undefined)
    | undefined
}

// Not marked free of side effects: with campaign 'eager' it asks for the campaign at once.
export function attachExtras(tracker: Tracker, options: ExtrasOptions): ReferralInternals {
  const { core, ...tracking } = tracker
  const stores = createStores()
  const userToken = createUserToken(options)
  const calls = referrerCalls(core.api)
  const banner = createBanner(core)
  const link = createLink({
    core,
    stores,
    calls,
    userToken,
    userId: options.userId,
    landingUrl: options.landingUrl,
    refParam: options.refParam,
    prefetched: options.prefetchedLink,
  })
  const showAttribution = () => {
    stores.$attribution.set(core.attribution.get())
    stores.$bannerDismissed.set(banner.dismissed())
  }
  const campaign = createCampaign({
    core,
    stores,
    calls,
    campaignId: options.campaignId,
    onSettled() {
      stores.$attribution.set(core.attribution.get())
      void link.load()
    },
  })
  const showQueue = () => {
    stores.$queueSize.set(tracker.queueSize())
    const connection = core.connection()
    if (toJson(stores.$connection.get()) !== toJson(connection)) stores.$connection.set(connection)
  }

  const summary = createSummary({ core, stores, userToken })
  // A new link (or none): its results, or nothing.
  let shownFor: string | undefined
  stores.$link.listen((state) => {
    const code = state.status === 'ready' ? state.link.code : undefined
    if (code === shownFor) return
    shownFor = code
    void summary.refresh()
  })

  core.events.on('change', showQueue)
  core.events.on('captured', showAttribution)
  core.events.on('forgotten', showAttribution)
  core.events.on('consent', (granted) => {
    if (granted) link.resume()
  })
  core.onDestroy(core.host.listen('online', () => campaign.retry()))
  // Back from the back/forward cache: what the panel shows is read again where it may be old.
  core.events.on('restored', () => {
    campaign.revalidate(RESTORED_STALE_MS)
    void summary.refresh()
  })

  showAttribution()
  showQueue()
  link.start()
  const needCampaign = () => campaign.need(options.prefetched)
  if (options.campaign !== 'on-demand' || options.prefetched) needCampaign()
  const { $dialog, open, close, prompt, nameLauncher } = createDialog(core, {
    user: link.user,
    $campaign: stores.$campaign,
    needCampaign,
  })

  return {
    ...tracking,
    identify(id, identity) {
      const before = userToken.get()
      link.identify(id, identity)
      // A token for the link already shown: its results can be read now.
      if (userToken.get() !== before) void summary.refresh()
    },
    async flush() {
      await tracking.flush()
      // The events just delivered may be the referrer's friends joining.
      void summary.refresh()
    },
    refreshSummary: () => void summary.refresh(),
    async getLink() {
      needCampaign()
      return link.get()
    },
    needCampaign,
    open,
    close,
    prompt,
    nameLauncher,
    $dialog,
    dismissBanner() {
      banner.dismiss()
      if (core.attribution.get()) stores.$bannerDismissed.set(true)
    },
    ...stores,
    config: {
      mode: core.key.mode,
      locale: options.locale ?? core.host.language ?? browserLanguage() ?? 'en',
      theme: options.theme ?? 'auto',
    },
  }
}
