// How the script tag's file and the files beside it find each other. A sibling is a classic
// script (a module fetched from another origin would need CORS headers): it hands its part over
// by calling the function the script tag's file put under a well-known symbol, naming which
// part it is, so two siblings loading at once are never taken for each other. When the script
// tag carries `integrity`, every sibling is loaded with its own hash, so a changed file beside it
// never runs: the hashes come in the pins file, whose own hash the script tag's file carries.
import type { handoffArrival } from '../api/handoff.ts'
import type { attributionCookie } from '../core/attribution-cookie.ts'
import type { checkoutLinks } from '../core/checkout/links.ts'
import type { ExtrasOptions } from '../core/extras.ts'
import type { outboundLinks } from '../core/outbound.ts'
import type { Tracker } from '../core/tracker.ts'
import type { DebugFile } from '../core/tracker-options.ts'
import type { ReferralInternals, ReferralOptions } from '../core/types.ts'
import type { CreateSending } from '../queue/sending.ts'
import { ownScript, policyRefused } from '../shared/trusted-script-url.ts'
import type { UiLanguage } from '../ui/messages/languages.ts'
import type { Messages } from '../ui/messages/messages.ts'
import type { AttributeChecks } from './attributes.ts'
import type { CommandFunction } from './commands.ts'

export const PART_READY = Symbol.for('referral-widget.part')

export interface MountAllOptions {
  /** The script tag: the UI file reads the panel's attributes (data-messages...) from it. */
  script: Pick<HTMLScriptElement, 'getAttribute'>
  /** The script tag was pinned by SRI: the files the UI file loads are pinned too. */
  integrity: boolean
  /**
   * The page's language's messages file, already asked for by the tracking part beside the UI
   * file (unpinned pages; pinned, the UI file loads it with the hash it carries).
   */
  messages?: Promise<Parts['messages']> | undefined
}

/** What a later-loaded file offers: the rest of the core, and (the UI file) the panel. */
export interface Part {
  /**
   * Campaign, link, banner state and stores, on the tracking part, with what it asked for ahead;
   * the later part's methods take over the command function's.
   */
  attach(
    tracker: Tracker,
    options: ReferralOptions,
    sent: Partial<ExtrasOptions>,
    commands: CommandFunction,
  ): ReferralInternals
  /**
   * Mounts every panel and banner of the page (once its language's messages are there), and each
   * that comes later; returns what unmounts them all and stops watching.
   */
  mountAll?(referral: ReferralInternals, options: MountAllOptions): () => void
}

/** What the loader hands the tracking part: its tag, and the command function it installed. */
export interface TrackingStart {
  script: HTMLScriptElement
  /** The command function: installed by the loader where it read the tag; else by the part. */
  commands: CommandFunction
  /** The loader installed it: false where it could not read the tag, or the name is the page's. */
  installed: boolean
  /**
   * The outbound part is needed before tracking starts: a referral in the address bar waits for
   * the visitor's consent (it rides on the site's own links until they answer), or a hand-off
   * reached the page (in its address, or in an arrival kept for it) and is read there.
   */
  outbound: boolean
  /** From now on, `show` is what a panel or banner coming to the page does (the loader watches). */
  panels(show: () => void): void
}

/** What the loader hands the launcher file (a tag with data-launcher or data-prompt). */
export interface LauncherStart {
  script: HTMLScriptElement
  commands: CommandFunction
  /** The widget's storage keys' prefix: the launcher's name, as the panel last showed it. */
  namespace: string
  /** The visitor means to open the panel (pointer over, focus, touch): its files start now. */
  warm(): void
}

/** Each file beside the loader, by the name it hands its part over with. */
export interface Parts {
  /** The tracking part: capture, visitor id, events stored, option checks (tracking-part.ts). */
  tracking: { start(start: TrackingStart): void }
  /** The precise checks of the tag's attributes, when one is refused (checks-part.ts). */
  checks: { precise: AttributeChecks }
  /** Debug mode and diagnose(), when asked for (debug-part.ts). */
  debug: DebugFile
  /** What sends the queue, when there is something to send (delivery-part.ts). */
  delivery: { createSending: CreateSending }
  ui: Part
  link: Part
  /** The attribution cookie's module, for pages that set data-cookie-domain. */
  cookie: { sharedCookie: typeof attributionCookie }
  /**
   * The hand-off between the site's domains: decorating links, for pages that set data-outbound;
   * reading one, for pages it reached.
   */
  outbound: { outboundLinks: typeof outboundLinks; handoffArrival: typeof handoffArrival }
  /** One built-in language's messages, for the UI file (which carries English). */
  messages: { language: UiLanguage; messages: Messages }
  /** What carries the referral on checkout links, for pages that set data-checkout. */
  checkout: { checkoutLinks: typeof checkoutLinks }
  /** The launcher and the prompt after sign-up (launcher-part.ts). */
  launcher: { start(start: LauncherStart): void }
  /** The hash of each file beside the loader, for a tag pinned by SRI (pins-part.ts). */
  pins: { hashes: Record<string, string> }
}

export type PartName = keyof Parts

const PINS_FILE = 'referral-widget-pins.js'
/** The pins file's Subresource Integrity hash, filled in by the build (which builds that first). */
declare const __PINS_INTEGRITY__: string | undefined
const PINS_HASH = typeof __PINS_INTEGRITY__ === 'string' ? __PINS_INTEGRITY__ : undefined

type Waiting = { [N in PartName]?: (part: Parts[N]) => void }
const waiting = (): Waiting => {
  const global = globalThis as Record<symbol, unknown>
  if (typeof global[PART_READY] !== 'object' || global[PART_READY] === null) global[PART_READY] = {}
  return global[PART_READY] as Waiting
}

/** The pins, asked for once for the whole page (again after a failure): pinned pages only. */
let pins: Promise<Record<string, string>> | undefined
const pinsBeside = (besides: string) =>
  (pins ??= load('pins', PINS_FILE, besides, true, PINS_HASH).then(
    (file) => file.hashes,
    (failure) => {
      pins = undefined
      throw failure
    },
  ))

/**
 * Loads `file` from beside `besides` (the script tag's file, or the UI file). `pinned`: that file
 * was loaded with an integrity hash, so the sibling must carry one too (`hash`, by default the
 * pins file's for it), or it is not loaded at all. `preload`: only fetched now, for the part that
 * runs it later (the UI file, fetched by the loader beside the tracking part, run once the part
 * asks for it): its promise settles only where it is refused.
 */
export const loadSibling = <N extends PartName>(
  name: N,
  file: string,
  besides: string,
  pinned: boolean,
  hash?: string,
  preload?: boolean,
): Promise<Parts[N]> =>
  pinned && !hash
    ? pinsBeside(besides).then((hashes) => load(name, file, besides, true, hashes[file], preload))
    : load(name, file, besides, pinned, hash, preload)

function load<N extends PartName>(
  name: N,
  file: string,
  besides: string,
  pinned: boolean,
  hash: string | undefined,
  preload?: boolean,
): Promise<Parts[N]> {
  return new Promise((resolve, reject) => {
    if (pinned && !hash) {
      reject(new Error(`no integrity hash is built for ${file}`))
      return
    }
    const url = new URL(file, besides).href
    // The part hands itself over when it runs, however it was loaded.
    if (!preload) (waiting() as Record<N, (part: Parts[N]) => void>)[name] = resolve
    let element: HTMLScriptElement & HTMLLinkElement
    try {
      element = ownScript(preload ? 'link' : 'script', url)
    } catch (refused) {
      // The page enforces Trusted Types and its CSP refused the widget's policy. A module import
      // is no Trusted Types sink (its URL is the CSP's script-src's to allow): tracking goes on
      // that way, unpinned only. The panel's files find theirs through their <script>, and stay
      // out (the tracking part says why).
      if (preload || pinned || name === 'ui' || name === 'messages') reject(refused)
      else import(/* @vite-ignore */ url).catch(reject)
      return
    }
    // The file is named on the error: a pinned page's pins file fails the file asked for after it.
    if (!preload)
      element.onerror = () => reject(Object.assign(new Error(`could not load ${file}`), { file }))
    if (pinned) {
      element.integrity = hash as string // refused above where there is none
      element.crossOrigin = 'anonymous'
    }
    document.head.append(element)
  })
}

/**
 * The sentence for `what` (the widget, the panel...) not loaded from `file`: the page's Trusted
 * Types policy refused it (a TypeError from the <script>'s src, the widget's policy refused by
 * the CSP), or the file could not be loaded (the one the failure names: the pins file, on a pinned
 * page); `effect`: what that leaves undone.
 */
export const notLoaded = (what: string, file: string, failure: unknown, effect = '') =>
  failure instanceof TypeError && policyRefused()
    ? `The ${what} cannot load under this page's Trusted Types policy: add \`referral-widget\` to the CSP's trusted-types directive.`
    : `The ${what} could not be loaded from ${(failure as { file?: string } | null)?.file ?? file} beside the script${effect}.`

export const UI_FILE = 'referral-widget-ui.js'

/** The UI file the page needs now: the panel's (with the banner), the banner's alone, or none. */
export const uiFile = () =>
  document.querySelector('[data-referral-widget]')
    ? UI_FILE
    : document.querySelector('[data-referral-banner]')
      ? 'referral-widget-banner.js'
      : undefined

/** Called by a sibling file when it runs. */
export function handOver<N extends PartName>(name: N, part: Parts[N]) {
  const ready = waiting()[name] as ((part: Parts[N]) => void) | undefined
  delete waiting()[name]
  ready?.(part)
}
