// <referral-widget public-key="pk_…" api-base="https://…" campaign-id="camp_…" user-id="…">
// for pages built with another framework (or none). Importing this module defines the element.

import { checkOption } from './core/options.ts'
import type { ReferralInternals as Referral, ReferralOptions } from './core/types.ts'
import { error as logError } from './shared/log.ts'
import { mountBanner, mountPanel } from './ui/mount.ts'
import { acquireReferral, releaseReferral } from './ui/registry.ts'

const ATTRIBUTES = {
  'api-base': 'apiBase',
  'campaign-id': 'campaignId',
  'user-id': 'userId',
  'ref-param': 'refParam',
  'landing-url': 'landingUrl',
  'clean-url': 'cleanUrl',
  consent: 'consent',
  'honor-gpc': 'honorGpc',
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
    const presentation = <K extends 'theme' | 'locale'>(name: K) => {
      const value = this.getAttribute(name)
      try {
        return value === null ? undefined : checkOption(name, value, name, 'is ignored')
      } catch (failure) {
        logError(`<referral-widget>: ${(failure as Error).message}`)
      }
    }
    this.#unmount = mount(this, this.#referral, {
      theme: presentation('theme'),
      locale: presentation('locale'),
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
