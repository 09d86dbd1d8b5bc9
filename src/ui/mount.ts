// Puts the panel or the banner into an element, inside an open shadow root with the widget's
// own stylesheet. Shared by the script tag, the Preact components and the custom element.
import { h, render } from 'preact'
import type { ReferralInternals as Referral, Theme } from '../core/types.ts'
import { Banner } from './Banner.tsx'
import {
  isRightToLeft,
  type MessageOverrides,
  messagesFor,
  messagesLanguage,
} from './messages/index.ts'
import { Panel, type UiSettings } from './Panel.tsx'
import { adoptStyles } from './styles.ts'

export interface UiOptions {
  locale?: string | undefined
  theme?: Theme | undefined
  messages?: MessageOverrides | undefined
  /** Adds utm_source=<channel>&utm_medium=referral to the link each channel shares. */
  shareUtm?: boolean | undefined
}

export function uiSettings(
  referral: Pick<Referral, 'config'>,
  options: UiOptions = {},
): UiSettings {
  const locale = options.locale ?? referral.config.locale
  return {
    locale,
    theme: options.theme ?? referral.config.theme,
    messages: messagesFor(locale, options.messages),
    dir: isRightToLeft(locale) ? 'rtl' : 'ltr',
    mode: referral.config.mode,
    language: messagesLanguage(locale),
    shareUtm: options.shareUtm === true,
  }
}

/** The element inside the host's shadow root that Preact renders into. */
export function containerOf(host: Element): Element {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
  let container = root.querySelector('div[data-container]')
  if (!container) {
    adoptStyles(root)
    container = root.ownerDocument.createElement('div')
    container.setAttribute('data-container', '')
    root.append(container)
  }
  return container
}

/** Renders the panel into `host`; returns the function that removes it. */
export function mountPanel(host: Element, referral: Referral, options?: UiOptions): () => void {
  referral.needCampaign()
  // The panel opens: the referrer's results as they are now.
  referral.refreshSummary()
  const container = containerOf(host)
  render(h(Panel, { source: referral, ui: uiSettings(referral, options) }), container)
  return () => render(null, container)
}

/** Renders the referred visitor's banner into `host`; returns the function that removes it. */
export function mountBanner(host: Element, referral: Referral, options?: UiOptions): () => void {
  referral.needCampaign()
  const container = containerOf(host)
  render(h(Banner, { source: referral, ui: uiSettings(referral, options) }), container)
  return () => render(null, container)
}
