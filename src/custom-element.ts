// <referral-widget public-key="pk_…" api-base="https://…" campaign-id="camp_…" user-id="…">
// for pages built with another framework (or none). Importing this module defines the element.
import type { Referral, ReferralOptions, Theme } from './core/create-referral.ts'
import { error as logError } from './core/log.ts'
import { mountBanner, mountPanel } from './ui/mount.ts'
import { acquireReferral, releaseReferral } from './ui/registry.ts'

const ATTRIBUTES = {
  'api-base': 'apiBase',
  'campaign-id': 'campaignId',
  'user-id': 'userId',
  'ref-param': 'refParam',
  'landing-url': 'landingUrl',
} as const

const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement

export class ReferralWidgetElement extends Base {
  static observedAttributes = ['user-id']
  #referral: Referral | null = null
  #unmount: (() => void) | null = null

  connectedCallback() {
    const options: Partial<ReferralOptions> & { publicKey: string; apiBase: string } = {
      publicKey: this.getAttribute('public-key') ?? '',
      apiBase: this.getAttribute('api-base') ?? '',
    }
    for (const [attribute, option] of Object.entries(ATTRIBUTES)) {
      const value = this.getAttribute(attribute)
      if (value !== null && option !== 'apiBase')
        (options as Record<string, unknown>)[option] = value
    }
    try {
      this.#referral = acquireReferral(options as ReferralOptions)
    } catch (failure) {
      logError(`<referral-widget>: ${failure instanceof Error ? failure.message : String(failure)}`)
      return
    }
    const mount = this.getAttribute('variant') === 'banner' ? mountBanner : mountPanel
    // Presentation attributes: a bad one is reported and left out, the widget still shows.
    const theme = this.getAttribute('theme')
    if (theme !== null && theme !== 'light' && theme !== 'dark' && theme !== 'auto') {
      logError(
        `<referral-widget>: theme must be light, dark or auto, not ${JSON.stringify(theme)}.`,
      )
    }
    let locale = this.getAttribute('locale') ?? undefined
    try {
      if (locale !== undefined) Intl.getCanonicalLocales(locale)
    } catch {
      logError(
        `<referral-widget>: locale must be a language tag such as en-US, not ${JSON.stringify(locale)}.`,
      )
      locale = undefined
    }
    this.#unmount = mount(this, this.#referral, {
      locale,
      theme:
        theme === 'light' || theme === 'dark' || theme === 'auto' ? (theme as Theme) : undefined,
    })
  }

  disconnectedCallback() {
    this.#unmount?.()
    this.#unmount = null
    if (this.#referral) releaseReferral(this.#referral)
    this.#referral = null
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null) {
    if (name !== 'user-id' || !this.#referral) return
    try {
      this.#referral.identify(value)
    } catch (failure) {
      logError(`<referral-widget>: ${failure instanceof Error ? failure.message : String(failure)}`)
    }
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('referral-widget')) {
  customElements.define('referral-widget', ReferralWidgetElement)
}
