import type { ReferralInternals as Referral } from '../core/types.ts'
import { formatReward } from './format.ts'
import { message } from './messages/index.ts'
import type { UiSettings } from './Panel.tsx'
import { StoreView } from './store-view.ts'

export type BannerSource = Pick<
  Referral,
  '$campaign' | '$attribution' | '$bannerDismissed' | 'dismissBanner'
>

/** "A friend invited you": shown to a visitor who arrived through a link, until dismissed. */
export class Banner extends StoreView<{ source: BannerSource; ui: UiSettings }> {
  watched() {
    const { source } = this.props
    return [source.$campaign, source.$attribution, source.$bannerDismissed]
  }

  override render() {
    const { source, ui } = this.props
    const campaignState = source.$campaign.get()
    const attribution = source.$attribution.get()
    const dismissed = source.$bannerDismissed.get()
    if (campaignState.status !== 'ready' || !attribution || dismissed) return null
    const { campaign } = campaignState
    const give = formatReward(campaign.referredReward, ui.locale)
    // Extension: in a purchase campaign the reward comes with the first purchase.
    const text =
      campaign.rewardTrigger === 'purchase' ? ui.messages.bannerPurchase : ui.messages.banner
    return (
      <section
        class="root banner"
        data-part="banner"
        data-theme={ui.theme}
        dir={ui.dir}
        lang={ui.locale}
        aria-label={campaign.name}
      >
        <p>{message(text, { give })}</p>
        <button
          type="button"
          class="dismiss"
          data-part="dismiss"
          aria-label={ui.messages.dismiss}
          onClick={() => source.dismissBanner()}
        >
          <span aria-hidden="true">×</span>
        </button>
      </section>
    )
  }
}
