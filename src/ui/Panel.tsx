import { createRef } from 'preact'
import type { ReferralInternals as Referral } from '../core/types.ts'
import { copyToClipboard } from './clipboard.ts'
import { formatReward } from './format.ts'
import { type Messages, message, plural } from './messages/index.ts'
import { ShareButtons } from './ShareButtons.tsx'
import { StoreView } from './store-view.ts'

export interface UiSettings {
  locale: string
  theme: 'light' | 'dark' | 'auto'
  messages: Messages
  dir: 'ltr' | 'rtl'
  mode: 'test' | 'live'
  /** The built-in language the messages are in: its plural rules apply to counts. */
  language: string
  /** Adds utm_source=<channel>&utm_medium=referral to the link each channel shares. */
  shareUtm: boolean
}

/** What the panel reads of the core: its stores only. */
export type PanelSource = Pick<Referral, '$campaign' | '$link' | '$connection' | '$queueSize'> &
  Partial<Pick<Referral, '$summary'>>

/** Only http: and https: URLs ever go into an href. */
export function safeHttpUrl(value: string): string | null {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null
  } catch {
    return null
  }
}

/** The campaign's headline, as the panel shows it. */
export const headline = (messages: Messages, give: string, get: string) =>
  message(messages.headline, { give, get })

export class Panel extends StoreView<
  /** `onClose`: the panel is a dialog's, with a close button. */
  { source: PanelSource; ui: UiSettings; onClose?: (() => void) | undefined },
  { copyStatus: string }
> {
  override state = { copyStatus: '' }
  input = createRef<HTMLInputElement>()

  watched() {
    const { source } = this.props
    const { $campaign, $link, $connection, $queueSize, $summary } = source
    return [$campaign, $link, $connection, $queueSize, ...($summary ? [$summary] : [])]
  }

  override render() {
    const { source, ui } = this.props
    const { messages } = ui
    const campaignState = source.$campaign.get()
    const linkState = source.$link.get()
    const connection = source.$connection.get()
    const waiting = source.$queueSize.get()
    const { copyStatus } = this.state
    const input = this.input

    const state = campaignState.status
    const common = {
      class: 'root',
      'data-part': 'root',
      'data-state': state,
      'data-theme': ui.theme,
      dir: ui.dir,
      lang: ui.locale,
    }

    const close = this.props.onClose && (
      <button
        type="button"
        class="close"
        data-part="close"
        aria-label={messages.close}
        onClick={this.props.onClose}
      >
        <span aria-hidden="true">×</span>
      </button>
    )

    if (state === 'empty') return <div {...common} />
    if (state === 'error') {
      return (
        <div {...common} role="alert">
          <p class="note">{messages.error}</p>
          {close}
        </div>
      )
    }

    const campaign = state === 'ready' ? campaignState.campaign : null
    // Extension: the friend's first purchase earns the rewards, and the panel says so.
    const purchase = campaign?.rewardTrigger === 'purchase'
    const give = campaign ? formatReward(campaign.referredReward, ui.locale) : ''
    const get = campaign ? formatReward(campaign.referrerReward, ui.locale) : ''
    const link = linkState.status === 'ready' ? linkState.link : null
    const shareUrl = link ? safeHttpUrl(link.url) : null
    // The referrer's results, for the link shown (service extension; absent, nothing shows).
    const summary = source.$summary?.get()
    const results =
      summary && link && summary.code === link.code
        ? [
            plural(messages.summary, summary.signups, ui.language),
            ...(purchase && summary.buyers !== undefined
              ? [plural(messages.summaryBought, summary.buyers, ui.language)]
              : []),
            ...(summary.rewardsEarned.amount > 0
              ? [
                  message(messages.summaryEarned, {
                    amount: formatReward({ type: 'credit', ...summary.rewardsEarned }, ui.locale),
                  }),
                ]
              : []),
          ].join(' · ')
        : ''

    const queueNote =
      waiting > 0 && connection.state === 'offline'
        ? plural(messages.offline, waiting, ui.language)
        : waiting > 0 && connection.state === 'rate-limited'
          ? plural(messages.rateLimited, waiting, ui.language)
          : ''

    const copy = async () => {
      if (!shareUrl) return
      const ok = await copyToClipboard(shareUrl, input.current)
      this.setState({ copyStatus: ok ? messages.copied : messages.copyFailed })
    }

    return (
      <section
        {...common}
        aria-busy={state === 'loading'}
        aria-label={campaign ? campaign.name : messages.loading}
      >
        <div class="top">
          {campaign ? (
            <h2 class="headline" id="referral-headline" data-part="headline">
              {headline(messages, give, get)}
            </h2>
          ) : (
            <div class="skeleton line" aria-hidden="true" data-part="headline-skeleton" />
          )}
          {ui.mode === 'test' && (
            <span class="badge" data-part="test-badge">
              {messages.testMode}
            </span>
          )}
          {close}
        </div>
        <ul class="rewards">
          <li data-part="referrer-reward">
            {campaign
              ? message(purchase ? messages.referrerRewardPurchase : messages.referrerReward, {
                  get,
                })
              : '\u00a0'}
          </li>
          <li data-part="referred-reward">
            {campaign
              ? message(purchase ? messages.referredRewardPurchase : messages.referredReward, {
                  give,
                })
              : '\u00a0'}
          </li>
        </ul>
        {linkState.status === 'idle' && campaign ? (
          <p class="note" data-part="sign-in">
            {messages.signIn}
          </p>
        ) : (
          <>
            <label class="label" for="referral-link">
              {messages.linkLabel}
            </label>
            <div class="row">
              {shareUrl ? (
                <input
                  ref={input}
                  id="referral-link"
                  class="link"
                  data-part="link"
                  type="text"
                  dir="ltr"
                  readOnly
                  value={shareUrl}
                  onFocus={(event) => event.currentTarget.select()}
                />
              ) : (
                <div
                  id="referral-link"
                  class="skeleton"
                  data-part="link-skeleton"
                  aria-hidden="true"
                />
              )}
              <button
                type="button"
                class="primary"
                data-part="copy"
                disabled={!shareUrl}
                onClick={copy}
              >
                {messages.copy}
              </button>
            </div>
            {results && shareUrl && (
              <p class="note" data-part="summary">
                {results}
              </p>
            )}
            {shareUrl && (
              <ShareButtons
                url={shareUrl}
                rewards={{ give, get }}
                messages={messages}
                utm={ui.shareUtm}
                purchase={purchase}
              />
            )}
          </>
        )}
        <div class="status" data-part="status" role="status" aria-live="polite">
          {copyStatus || (linkState.status === 'error' ? messages.error : queueNote)}
        </div>
      </section>
    )
  }
}
