// <referral-widget public-key="pk_…" api-base="https://…" campaign-id="camp_…" user-id="…">
// for pages built with another framework (or none). Importing this module defines the element.
// Every attribute is observed: configuration may arrive after the element is on the page (as
// frameworks often set it), and any later change is followed. `variant="dialog"` shows the panel
// as a modal dialog while the element has `open`; closed by the visitor (Escape, its close
// button), the element loses `open` and fires `close`.

import { checkOption } from './core/option-errors.ts'
import { type MarkupOption, OPTION_ATTRIBUTES } from './core/options.ts'
import type { ReferralInternals as Referral, ReferralOptions, Theme } from './core/types.ts'
import { messageOf } from './shared/errors.ts'
import { toJson } from './shared/json.ts'
import { error as logError } from './shared/log.ts'
import { mountDialog } from './ui/dialog/mount.ts'
import type { Messages } from './ui/messages/index.ts'
import { mountBanner, mountPanel, type UiOptions } from './ui/mount.ts'
import { acquireReferral, releaseReferral } from './ui/registry.ts'

/** Options followed on the element's core as they change; any other option builds a new core. */
const FOLLOWED = [
  'userId',
  'userToken',
  'theme',
  'locale',
] as const satisfies readonly MarkupOption[]

/** The attributes a core is built from, and their options. */
const CORE_ATTRIBUTES = (Object.keys(OPTION_ATTRIBUTES) as MarkupOption[])
  .filter((option) => !(FOLLOWED as readonly string[]).includes(option))
  .map((option) => [OPTION_ATTRIBUTES[option].element, option] as const)

const attribute = (option: MarkupOption) => OPTION_ATTRIBUTES[option].element

/** The attributes the element reads besides the options': which UI it shows, how it shares. */
const UI_ATTRIBUTES = ['variant', 'share-utm', 'open'] as const

/** What each variant mounts. */
const MOUNTS = { panel: mountPanel, banner: mountBanner, dialog: mountDialog }
type Variant = keyof typeof MOUNTS

/** The name of every attribute the element observes (ReferralWidgetAttributes types each). */
export type ReferralWidgetAttributeName =
  | (typeof OPTION_ATTRIBUTES)[MarkupOption]['element']
  | (typeof UI_ATTRIBUTES)[number]

/** Every attribute the element reads: every option's, which UI it shows, and how it shares. */
const ATTRIBUTES: readonly ReferralWidgetAttributeName[] = [
  ...Object.values(OPTION_ATTRIBUTES).map(({ element }) => element),
  ...UI_ATTRIBUTES,
]

const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement

const report = (failure: unknown) => logError(`<referral-widget>: ${messageOf(failure)}`)

export class ReferralWidgetElement extends Base {
  static observedAttributes: ReferralWidgetAttributeName[] = [...ATTRIBUTES]
  #referral: Referral | null = null
  #coreKey: string | null = null
  /** The user id and token last identified, as JSON. */
  #identity: string | null = null
  #unmount: (() => void) | null = null
  #shown: string | null = null
  #messages: Partial<Messages> | undefined
  #scheduled = false

  /** Overrides of the built-in messages (a property: JSON does not belong in an attribute). */
  get messages(): Partial<Messages> | undefined {
    return this.#messages
  }

  set messages(value: Partial<Messages> | undefined) {
    this.#messages = value ?? undefined
    this.#schedule()
  }

  connectedCallback() {
    this.#update()
  }

  disconnectedCallback() {
    this.#stop()
  }

  attributeChangedCallback(_name: string, old: string | null, value: string | null) {
    if (old !== value) this.#schedule()
  }

  /** Changes made together (a framework sets attributes one by one) are applied once. */
  #schedule() {
    if (this.#scheduled || !this.isConnected) return
    this.#scheduled = true
    queueMicrotask(() => {
      this.#scheduled = false
      this.#update()
    })
  }

  #update() {
    if (!this.isConnected) return
    const options: Record<string, string> = {}
    for (const [name, option] of CORE_ATTRIBUTES) {
      const value = this.getAttribute(name)
      if (value !== null) options[option] = value
    }
    const coreKey = toJson(options)
    if (coreKey !== this.#coreKey) {
      this.#stop()
      // Neither key nor service yet: not configured so far (a framework may set them later).
      // Only one of them is a mistake, reported below.
      if (options.publicKey === undefined && options.apiBase === undefined) return
      this.#coreKey = coreKey
      const userId = this.getAttribute(attribute('userId'))
      const userToken = this.getAttribute(attribute('userToken'))
      try {
        this.#referral = acquireReferral({
          publicKey: '',
          apiBase: '',
          ...options,
          ...(userId === null ? {} : { userId }),
          ...(userId === null || userToken === null ? {} : { userToken }),
        } as ReferralOptions)
        this.#identity = toJson([userId, userToken])
      } catch (failure) {
        report(failure)
        return
      }
    }
    const referral = this.#referral
    if (!referral) return

    const userId = this.getAttribute(attribute('userId'))
    const userToken = this.getAttribute(attribute('userToken'))
    const identity = toJson([userId, userToken])
    if (identity !== this.#identity) {
      this.#identity = identity
      try {
        referral.identify(userId, userToken === null ? undefined : { token: userToken })
      } catch (failure) {
        report(failure)
      }
    }

    const written = this.getAttribute('variant') ?? 'panel'
    const variant: Variant = Object.hasOwn(MOUNTS, written) ? (written as Variant) : 'panel'
    const ui: UiOptions = {
      theme: this.#presentation('theme'),
      locale: this.#presentation('locale'),
      messages: this.#messages,
      shareUtm: this.#shareUtm(),
    }
    const shown = toJson([variant, ui])
    if (shown !== this.#shown) {
      this.#unmount?.()
      this.#shown = shown
      const unmount = MOUNTS[variant](this, referral, ui)
      const closed = variant === 'dialog' ? referral.on('close', () => this.#closed()) : () => {}
      this.#unmount = () => {
        closed()
        unmount()
      }
    }
    if (variant !== 'dialog') return
    if (this.#open()) referral.open()
    else referral.close()
  }

  /** `open` present and not `false`. */
  #open(): boolean {
    const open = this.getAttribute('open')
    return open !== null && open !== 'false'
  }

  /** The dialog closed while the element said open: the element follows (no `open`), says so. */
  #closed() {
    if (!this.#open()) return
    this.removeAttribute('open')
    this.dispatchEvent(new Event('close'))
  }

  /** `share-utm="true"` tags each channel's link; anything but true or false is reported. */
  #shareUtm(): boolean {
    const value = this.getAttribute('share-utm')
    if (value !== null && value !== 'true' && value !== 'false') {
      report(`share-utm=${toJson(value)} is ignored: it must be true or false.`)
    }
    return value === 'true'
  }

  /** A bad theme or locale is reported and left out: the widget still shows. */
  #presentation<K extends 'theme' | 'locale'>(name: K) {
    const value = this.getAttribute(attribute(name))
    try {
      return value === null ? undefined : checkOption(name, value, attribute(name), 'is ignored')
    } catch (failure) {
      report(failure)
      return undefined
    }
  }

  #stop() {
    this.#unmount?.()
    this.#unmount = null
    this.#shown = null
    this.#coreKey = null
    if (this.#referral) releaseReferral(this.#referral)
    this.#referral = null
  }
}

/** `true` or `false`, as text or (in JSX) a boolean; a bare attribute is true. */
type Flag = 'true' | 'false' | boolean

/** The attributes whose value is narrower than any text. */
interface NarrowAttributes {
  theme: Theme
  variant: 'panel' | 'banner' | 'dialog'
  open: Flag
  consent: 'required'
  'clean-url': Flag
  'honor-gpc': Flag
  'share-utm': Flag
  debug: Flag
}

/**
 * The element's attributes, as JSX declarations use them (`referral-widget/custom-element/react`
 * and `…/preact`): one for each name it observes, so none is observed yet untyped. All are text
 * but those NarrowAttributes names; `messages` is the element's property.
 */
export type ReferralWidgetAttributes = {
  [Name in ReferralWidgetAttributeName]?:
    | (Name extends keyof NarrowAttributes ? NarrowAttributes[Name] : string)
    | undefined
} & {
  /** Set as the element's `messages` property. */
  messages?: Partial<Messages> | undefined
}

declare global {
  interface HTMLElementTagNameMap {
    'referral-widget': ReferralWidgetElement
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('referral-widget')) {
  customElements.define('referral-widget', ReferralWidgetElement)
}
