// createReferral: the headless core behind the components and the custom element. It only
// checks the options and wires the parts: tracking (tracker.ts) and what builds on it
// (extras.ts: campaign, link, stores). The script tag creates the tracking part alone and
// attaches the rest when a later-loaded file brings it.

import { handoffArrival } from '../api/handoff.ts'
import { createSending } from '../queue/sending.ts'
import { ConfigError } from '../shared/errors.ts'
import { own } from '../shared/own.ts'
import { attributionCookie } from './attribution-cookie.ts'
import { checkoutLinks } from './checkout/links.ts'
import { switchDebug } from './debug/switch.ts'
import { attachExtras, type ExtrasOptions } from './extras.ts'
import { browserHost } from './host.ts'
import { parsePublicKey } from './keys.ts'
import { checkOption } from './option-errors.ts'
import { resolveApiBase } from './options.ts'
import { outboundLinks } from './outbound.ts'
import { createTracker, type Tracker } from './tracker.ts'
import type { TrackerOptions } from './tracker-options.ts'
import type { Referral, ReferralInternals, ReferralOptions } from './types.ts'

export type {
  Referral,
  ReferralEvents,
  ReferralInternals,
  ReferralOptions,
  Theme,
  TrackProperties,
} from './types.ts'

/**
 * The headless core. Every problem with the options is a ConfigError, thrown before anything is
 * stored or sent.
 */
// Not marked free of side effects: a bare `createReferral(…)` captures the referral code in the
// address bar and records the click, so an app's bundler must keep it.
export function createReferral(options: ReferralOptions): Referral {
  return createReferralInternals(options)
}

/**
 * The cores alive on this page, by key: a second one for a key records every arrival twice over
 * (debug mode says so). The components share one per key (registry.ts); two createReferral calls
 * do not.
 */
const alive = new Map<unknown, number>()

/** The same core, with what the widget's own UI reads and calls (not side-effect free either). */
export function createReferralInternals(options: ReferralOptions): ReferralInternals {
  const key = own(options ?? {}).publicKey
  const tracker = createTracking(options, {
    sending: createSending,
    sharedCookie: attributionCookie,
    outboundLinks,
    handoffArrival,
    checkoutLinks: async () => checkoutLinks,
    debugging: () => import('./debug/index.ts').then((file) => file.debugFile),
    instances: () => alive.get(key) ?? 0,
  })
  alive.set(key, (alive.get(key) ?? 0) + 1)
  tracker.core.onDestroy(() => alive.set(key, (alive.get(key) ?? 1) - 1))
  return attachExtras(tracker, extrasOptions(own(options)))
}

/** Options the later part uses, checked up front all the same. */
const CHECKED_FIRST = [
  'campaignId',
  'userId',
  'userToken',
  'landingUrl',
  'theme',
  'consent',
  'locale',
] as const

/** The modules tracking is given rather than imports, so the script tag can load them beside it. */
export interface TrackingParts {
  /** What sends the queue (sending.ts): itself, or how the script tag loads its delivery file. */
  sending: TrackerOptions['sending']
  /** The cookie module, where `cookieDomain` is set (without it, no cookie). */
  sharedCookie?: typeof attributionCookie | undefined
  /** The outbound links module, where `outbound` is set (without it, no hand-off). */
  outboundLinks?: typeof outboundLinks | undefined
  /** What reads a hand-off that reached the page (without it, none is read). */
  handoffArrival?: typeof handoffArrival | undefined
  /** What carries the referral on checkout links, where `checkout` is set. */
  checkoutLinks?: TrackerOptions['checkoutLinks']
  /** The debug file, brought by the first debug(true) or diagnose(). */
  debugging: TrackerOptions['debugging']
  /** How many cores with this key the page runs (the ESM package counts them). */
  instances?: TrackerOptions['instances']
}

/**
 * Every option checked (the later part's too: a bad `userId` fails here, before anything is
 * stored or sent), then the tracking part created with the `parts` it is given.
 */
export function createTracking(given: ReferralOptions, parts: TrackingParts): Tracker {
  // Own options only: a field the page's Object.prototype carries is not an option.
  const options = own(given ?? {})
  const key = parsePublicKey(options.publicKey)
  if (typeof options.apiBase !== 'string' || options.apiBase === '') {
    throw new ConfigError('apiBase', 'apiBase is required: the base URL of the referral service.')
  }
  // A path such as `/referral` is the service on this site: resolved against the page.
  const href = { ...browserHost, ...options.host }.href()
  const apiBase = resolveApiBase(checkOption('apiBase', options.apiBase), href)
  for (const name of CHECKED_FIRST)
    if (options[name] !== undefined) checkOption(name, options[name])
  if (options.onTokenExpired !== undefined && typeof options.onTokenExpired !== 'function') {
    throw new ConfigError(
      'onTokenExpired',
      'onTokenExpired must be a function that resolves to a fresh user token.',
    )
  }
  return createTracker(
    own({
      ...options,
      key,
      apiBase,
      refParams: refParamsOf(options),
      cleanUrl: options.cleanUrl === undefined || checkOption('cleanUrl', options.cleanUrl),
      honorGpc: options.honorGpc !== undefined && checkOption('honorGpc', options.honorGpc),
      debug:
        (options.debug !== undefined && checkOption('debug', options.debug)) ||
        switchDebug(href === undefined ? '' : new URL(href).search),
      firstTouch:
        options.attribution !== undefined &&
        checkOption('attribution', options.attribution) === 'first',
      cookieDomain:
        options.cookieDomain === undefined
          ? undefined
          : checkOption('cookieDomain', options.cookieDomain),
      ...parts,
      // The links' module only where it has work: hand-offs, or a referral carried until consent.
      outboundLinks:
        options.outbound === undefined && options.consent !== 'required'
          ? undefined
          : parts.outboundLinks,
      outbound:
        options.outbound === undefined ? undefined : checkOption('outbound', options.outbound),
      checkout: options.checkout !== undefined && checkOption('checkout', options.checkout),
    }),
  )
}

const refParamsOf = (options: ReferralOptions) =>
  options.refParam === undefined ? ['ref'] : checkOption('refParam', options.refParam)

/** What the later part needs of the options (already checked by createTracking). */
export function extrasOptions(options: ReferralOptions): ExtrasOptions {
  return own({ ...options, refParam: refParamsOf(options)[0] ?? 'ref' })
}
