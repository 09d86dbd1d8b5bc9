// What the widget's core is, as its users see it: written by hand, so what is public is a
// decision. `Referral` is what `createReferral` returns and what `window.Referral` offers;
// `ReferralInternals` adds what the widget's own UI needs and nobody else should call.

import type { ReadableAtom } from 'nanostores'
import type { FetchLike } from '../api/client.ts'
import type { LinkSummary, PublicCampaign } from '../api/wire.ts'
import type { Connection, QueueEvents } from '../queue/queue.ts'
import type { LockManagerLike } from '../queue/sender.ts'
import type { StorageLike } from '../queue/storage.ts'
import type { Timers } from '../shared/timers.ts'
import type { Diagnosis } from './diagnosis.ts'
import type { Host } from './host.ts'
import type { Attribution, CampaignState, LinkState, ReferralLink } from './stores.ts'

export type Theme = 'light' | 'dark' | 'auto'

export interface ReferralOptions {
  /** pk_test_... or pk_live_...; a secret key is refused. */
  publicKey: string
  /** Base URL of the referral service: absolute, or a path on this site such as `/referral`. */
  apiBase: string
  /** A camp_... id; default: the newest active campaign. */
  campaignId?: string | undefined
  /** The signed-in user who refers others. */
  userId?: string | undefined
  /**
   * That user's token, minted by the site's server (`signUserToken` from
   * `referral-widget/server`): it proves to the service that the link and the results shown are
   * theirs. Kept in memory only: never stored, put in a URL or logged.
   */
  userToken?: string | undefined
  /**
   * Called when the service answers that the user token expired: resolves to a fresh token
   * (from the site's server). Called at most once per expiry; the request is then retried once.
   */
  onTokenExpired?: (() => Promise<string>) | undefined
  /** URL parameter(s) carrying the referral code; default `ref`. */
  refParam?: string | readonly string[] | undefined
  /** The page share links point to; default: this origin's `/`. */
  landingUrl?: string | undefined
  locale?: string | undefined
  theme?: Theme | undefined
  /** Remove the captured parameter from the address bar (default true). */
  cleanUrl?: boolean | undefined
  /**
   * `on-demand`: the campaign (and the user's link) are fetched only when something needs them
   * (`getLink()`, a mounted panel or banner), so a page that only tracks makes no campaign
   * request. Default `eager`.
   */
  campaign?: 'eager' | 'on-demand' | undefined
  /**
   * `required`: nothing is stored and no link or event is sent until `consent(true)`; a code seen
   * in the address bar meanwhile waits in memory. Default: store and send as first-party code.
   */
  consent?: 'required' | undefined
  /**
   * Honour the visitor's Global Privacy Control signal: where `navigator.globalPrivacyControl`
   * is true, a visitor arriving through a link is not recorded (no click, no stored code, no
   * banner). Default false.
   */
  honorGpc?: boolean | undefined
  /**
   * Also keep the captured referral in the first-party cookie `referral_attribution` on this
   * domain (the page's host or a parent of it, e.g. `shop.example`), so the site's other
   * subdomains and its server credit it. `'auto'`: the site's registrable domain, found by the
   * browser itself (host-only on localhost, an IP address or a single-label host). Default: no
   * cookie.
   */
  cookieDomain?: string | undefined
  /**
   * Which referral a visitor's sign-up credits when they arrive through more than one link within
   * the campaign's attribution window: `'last'` (the default) the latest, `'first'` the first one
   * (a later code's click is still recorded; after the window, the new code takes over).
   */
  attribution?: 'last' | 'first' | undefined
  /**
   * The site's other domains: a link the visitor follows to one of these hosts (and a URL given
   * to `decorate`) carries the attribution held here in one parameter, `ref_handoff`, which the
   * widget there (the same key) adopts. Host names, or `*.example.org` for any subdomain of
   * `example.org`; an array or a comma-separated list. Default: none.
   */
  outbound?: string | readonly string[] | undefined
  /**
   * Checkouts carry the referral (docs/PAYMENTS.md): while one is held, Stripe Payment Links,
   * `<stripe-pricing-table>`, `<stripe-buy-button>` and Lemon Squeezy checkout links carry its
   * checkout reference, those added later too; a value the site set is kept. Default false.
   */
  checkout?: boolean | undefined
  /**
   * Debug mode: every decision the widget makes (a referral captured or not, consent, a request
   * blocked, the service's verdict on each event) printed once on the console as
   * `[referral] <code>: …`, with what to do about it (docs/TROUBLESHOOTING.md). Default false;
   * `referral_debug=1` in the page's address turns it on for the tab's session too.
   */
  debug?: boolean | undefined
  /** Bounds of the event queue. */
  maxQueuedEvents?: number | undefined
  maxEventAgeMs?: number | undefined
  // Injectable for tests and unusual hosts. Defaults look the globals up at call time.
  fetch?: FetchLike | undefined
  storage?: StorageLike | null | undefined
  now?: (() => number) | undefined
  random?: (() => number) | undefined
  timers?: Timers | undefined
  locks?: LockManagerLike | null | undefined
  host?: Partial<Host> | undefined
}

/** What `on()` hears: the queue's announcements (event:queued/sent/dropped, ratelimited), and these. */
export interface ReferralEvents extends Omit<QueueEvents, 'change' | 'unsent'> {
  ready: { campaign: PublicCampaign | null }
  link: ReferralLink
  error: { error: Error }
  /** destroy() was called: the UI unmounts. */
  destroyed: undefined
  /**
   * An arrival (or `track('click')`) through a link this browser showed its own referrer: no
   * click is recorded, no referral held.
   */
  selfreferral: { code: string }
  /** The panel opened as a dialog (`prompted`: by prompt()). */
  open: { prompted: boolean }
  /** The dialog closed (Escape, its close button, close()). */
  close: undefined
}

/** The events `on` takes, every one of ReferralEvents (the script tag's surface lists them). */
export const EVENTS = [
  'ready',
  'link',
  'event:queued',
  'event:sent',
  'event:dropped',
  'ratelimited',
  'error',
  'destroyed',
  'selfreferral',
  'open',
  'close',
] as const satisfies ReadonlyArray<keyof ReferralEvents>
/** A public event left out of EVENTS fails here. */
export const EVERY_EVENT: Exclude<keyof ReferralEvents, (typeof EVENTS)[number]> extends never
  ? true
  : never = true

/** The core's own announcements, beside the public ones. */
export interface CoreEvents extends ReferralEvents {
  /** The queue changed: its size or its connection. */
  change: undefined
  /** A request failed and its events wait. */
  unsent: QueueEvents['unsent']
  /** The visitor gave (true) or withdrew (false) consent. */
  consent: boolean
  /** A code was captured from the address bar or `track('click')`. */
  captured: undefined
  /** Everything stored was erased. */
  forgotten: undefined
  /** The page was shown again from the back/forward cache. */
  restored: undefined
}

export type TrackProperties = { userId?: string; code?: string }

/** What `track`, `flush` and the rest need: everything the script tag's tracking part offers. */
export interface Tracking {
  /** Records an event. Never throws: bad input is reported on the console and as `error`. */
  track(type: 'signup' | 'click', properties?: TrackProperties): boolean
  /** The visitor's captured referral, to pass on server-side; null when there is none. */
  getAttribution(): Attribution | null
  /**
   * The held referral as one checkout reference (`r1-…`, fits Stripe's `client_reference_id`),
   * for a checkout the site opens itself (Paddle.js `customData: { referral }`, a Stripe Checkout
   * Session); null without a referral. Never rejects.
   */
  checkoutReference(): Promise<string | null>
  /**
   * `url` with the attribution handed off (`ref_handoff`) when it points to an `outbound` host
   * and there is an attribution to hand off (consent given, no honoured GPC signal); otherwise
   * `url` unchanged. For navigations the page makes in script. Never throws.
   */
  decorate(url: string): string
  on<K extends keyof ReferralEvents>(
    name: K,
    listener: (payload: ReferralEvents[K]) => void,
  ): () => void
  /** Settles when the queue has been tried once (see WIDGET.md). */
  flush(): Promise<void>
  /** Erases every `referral:` key of this key's namespace. */
  forget(): void
  /** The visitor's choice where consent is required. */
  consent(granted: boolean): void
  /** Events stored (in any tab) and not yet confirmed by the service. */
  queueSize(): number
  /** Unmounts the UI, removes listeners, stops timers; the queue stays stored. */
  destroy(): void
  /**
   * Debug mode on (`true`) or off: every decision printed once on the console, with what to do
   * (docs/TROUBLESHOOTING.md). Off also forgets a `referral_debug=1` kept for the tab's session.
   */
  debug(on: boolean): void
  /**
   * A report of this install in this visitor's browser (versions, key, service, campaign,
   * storage, consent, the referral held, the queue, the last 50 decisions): plain data, ready for
   * JSON. In debug mode it is printed as a table too.
   */
  diagnose(): Promise<Diagnosis>
}

/** The headless core: tracking, the referrer's link, and the stores the UI reads. */
export interface Referral extends Tracking {
  /**
   * Sets (or with null, clears) the referrer; the panel then shows that user's link. `token`:
   * their user token (see `userToken`), needed where the campaign requires one and for their
   * results in the panel.
   */
  identify(userId: string | null | undefined, options?: { token?: string | undefined }): void
  /** The identified user's share link. */
  getLink(): Promise<ReferralLink>
  /**
   * Opens the panel as a modal dialog; `opener`, the element that asked, gets the focus back when
   * it closes. Where no dialog is mounted (no UI), only the `open` event tells.
   */
  open(opener?: Element): void
  /** Closes the dialog. */
  close(): void
  /**
   * Opens the dialog unless this user was already prompted for this campaign in this browser;
   * never while consent is pending or refused, nor with no user identified.
   */
  prompt(): void
  readonly $campaign: ReadableAtom<CampaignState>
  readonly $link: ReadableAtom<LinkState>
  readonly $attribution: ReadableAtom<Attribution | null>
  readonly $queueSize: ReadableAtom<number>
  readonly $connection: ReadableAtom<Connection>
}

/** Whether the panel is open as a dialog, and what opened it. */
export interface DialogState {
  open: boolean
  /** What opened it (a launcher, a button of the site's): focus goes back there on close. */
  opener?: Element | undefined
  /** It was opened by prompt(). */
  prompted?: boolean | undefined
}

/** What the widget's own UI reads and calls beyond the public core. */
export interface ReferralInternals extends Referral {
  /** Starts fetching the campaign (once), where it is fetched on demand. */
  needCampaign(): void
  /** The referred visitor closed the banner: remembered for the code they arrived with. */
  dismissBanner(): void
  /** Asks again for the referrer's results (the panel opened, events were flushed). */
  refreshSummary(): void
  /** The referrer's results, when the service offers them to this user's token; else null. */
  readonly $summary: ReadableAtom<LinkSummary | null>
  readonly $bannerDismissed: ReadableAtom<boolean>
  /** The campaign's headline as the panel shows it: kept as the launcher's name. */
  nameLauncher(name: string): void
  /** Whether the panel is open as a dialog, and what opened it. */
  readonly $dialog: ReadableAtom<DialogState>
  readonly config: { mode: 'test' | 'live'; locale: string; theme: Theme }
}

/** The public methods, in the order the command API lists them. */
export const METHODS = [
  'identify',
  'track',
  'getLink',
  'getAttribution',
  'checkoutReference',
  'decorate',
  'on',
  'flush',
  'forget',
  'consent',
  'queueSize',
  'destroy',
  'debug',
  'diagnose',
  'open',
  'close',
  'prompt',
] as const satisfies ReadonlyArray<keyof Referral>
