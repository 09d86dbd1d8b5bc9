import { createRef } from 'preact'
import type { ReferralInternals as Referral } from '../core/types.ts'
import { copyToClipboard } from './clipboard.ts'
import { formatReward } from './format.ts'
import { message } from './messages/index.ts'
import type { UiSettings } from './Panel.tsx'
import { StoreView } from './store-view.ts'

export type BannerSource = Pick<
  Referral,
  '$campaign' | '$attribution' | '$bannerDismissed' | 'dismissBanner'
>

/** "A friend invited you": shown to a visitor who arrived through a link, until dismissed. */
export class Banner extends StoreView<
  { source: BannerSource; ui: UiSettings },
  /** The last copy's result, and the code it was for (another campaign's code starts afresh). */
  { copyStatus: string; copiedCode: string }
> {
  override state = { copyStatus: '', copiedCode: '' }
  input = createRef<HTMLInputElement>()

  watched() {
    const { source } = this.props
    return [source.$campaign, source.$attribution, source.$bannerDismissed]
  }

  override render() {
    const { source, ui } = this.props
    const { messages } = ui
    const campaignState = source.$campaign.get()
    const attribution = source.$attribution.get()
    const dismissed = source.$bannerDismissed.get()
    if (campaignState.status !== 'ready' || !attribution || dismissed) return null
    const { campaign } = campaignState
    const give = formatReward(campaign.referredReward, ui.locale)
    // Extension: in a purchase campaign the reward comes with the first purchase.
    const template =
      campaign.rewardTrigger === 'purchase' ? messages.bannerPurchase : messages.banner
    const text = <p>{message(template, { give })}</p>
    // Extension: the code the friend enters at checkout, where the service has one.
    const code = campaign.referredReward.promotionCode
    const { copyStatus, copiedCode } = this.state

    const copy = async () => {
      if (!code) return
      const ok = await copyToClipboard(code, this.input.current)
      this.setState({
        copyStatus: ok ? messages.codeCopied : messages.codeCopyFailed,
        copiedCode: code,
      })
    }

    return (
      <section
        class="root banner"
        data-part="banner"
        data-theme={ui.theme}
        dir={ui.dir}
        lang={ui.locale}
        aria-label={campaign.name}
      >
        {code ? (
          <div class="banner-body">
            {text}
            <label class="label" for="referral-promotion-code">
              {messages.codeLabel}
            </label>
            <div class="row">
              <input
                ref={this.input}
                id="referral-promotion-code"
                class="link"
                data-part="promotion-code"
                type="text"
                dir="ltr"
                readOnly
                value={code}
                onFocus={(event) => event.currentTarget.select()}
              />
              <button type="button" class="primary" data-part="copy-code" onClick={copy}>
                {messages.copyCode}
              </button>
            </div>
            <div class="status" data-part="status" role="status" aria-live="polite">
              {copiedCode === code ? copyStatus : ''}
            </div>
          </div>
        ) : (
          text
        )}
        <button
          type="button"
          class="dismiss"
          data-part="dismiss"
          aria-label={messages.dismiss}
          onClick={() => source.dismissBanner()}
        >
          <span aria-hidden="true">×</span>
        </button>
      </section>
    )
  }
}
