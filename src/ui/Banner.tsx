import { useStore } from '@nanostores/preact'
import type { Referral } from '../core/create-referral.ts'
import { formatReward } from './format.ts'
import { message } from './messages/index.ts'
import type { UiSettings } from './Panel.tsx'

export type BannerSource = Pick<
  Referral,
  '$campaign' | '$attribution' | '$bannerDismissed' | 'dismissBanner'
>

/** "A friend invited you": shown to a visitor who arrived through a link, until dismissed. */
export function Banner(props: { source: BannerSource; ui: UiSettings }) {
  const { source, ui } = props
  const campaignState = useStore(source.$campaign)
  const attribution = useStore(source.$attribution)
  const dismissed = useStore(source.$bannerDismissed)
  if (campaignState.status !== 'ready' || !attribution || dismissed) return null
  const give = formatReward(campaignState.campaign.referredReward, ui.locale)
  return (
    <section
      class="root banner"
      data-part="banner"
      data-theme={ui.theme}
      dir={ui.dir}
      lang={ui.locale}
      aria-label={campaignState.campaign.name}
    >
      <p>{message(ui.messages.banner, { give })}</p>
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
