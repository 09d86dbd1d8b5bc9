// How the script tag's file and the files beside it find each other. A sibling is a classic
// script (a module fetched from another origin would need CORS headers): it hands its part over
// by calling the function the script tag's file put under a well-known symbol, naming which
// part it is, so two siblings loading at once are never taken for each other. When the script
// tag carries `integrity`, every sibling is loaded with its own hash, built into the script
// tag's file, so a changed file beside it never runs.
import type { handoffArrival } from '../api/handoff.ts'
import type { attributionCookie } from '../core/attribution-cookie.ts'
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

/** Each file beside the loader, by the name it hands its part over with. */
export interface Parts {
  /** The tracking part: capture, visitor id, events stored, option checks (tracking-part.ts). */
  tracking: { start(start: TrackingStart): void }
  /**
   * The precise checks of the tag's attributes, debug mode and diagnose(): when an attribute is
   * refused, or when asked for (debug-part.ts).
   */
  debug: DebugFile & { precise: AttributeChecks }
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
}

export type PartName = keyof Parts

/** Subresource Integrity hashes of the files the loader loads, by name; filled in by the build. */
declare const __SIBLING_INTEGRITY__: Record<string, string> | undefined
const HASHES: Record<string, string> =
  typeof __SIBLING_INTEGRITY__ === 'undefined' ? {} : __SIBLING_INTEGRITY__

type Waiting = { [N in PartName]?: (part: Parts[N]) => void }
const waiting = (): Waiting => {
  const global = globalThis as Record<symbol, unknown>
  if (typeof global[PART_READY] !== 'object' || global[PART_READY] === null) global[PART_READY] = {}
  return global[PART_READY] as Waiting
}

/**
 * Loads `file` from beside `besides` (the script tag's file, or the UI file). `pinned`: that file
 * was loaded with an integrity hash, so the sibling must carry one too (`hash`, by default the
 * one the loader carries for it), or it is not loaded at all. `preload`: only fetched now, for
 * the part that runs it later (the UI file, fetched by the loader beside the tracking part, run
 * once the part asks for it): its promise settles only where it is refused.
 */
export function loadSibling<N extends PartName>(
  name: N,
  file: string,
  besides: string,
  pinned: boolean,
  hash: string | undefined = HASHES[file],
  preload = false,
): Promise<Parts[N]> {
  return new Promise((resolve, reject) => {
    if (pinned && !hash) {
      reject(new Error(`no integrity hash is built in for ${file}`))
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
    if (!preload) element.onerror = () => reject(new Error(`could not load ${file}`))
    if (pinned && hash) {
      element.integrity = hash
      element.crossOrigin = 'anonymous'
    }
    document.head.append(element)
  })
}

/**
 * The sentence for `what` (the widget, the panel...) not loaded from `file`: the page's Trusted
 * Types policy refused it (a TypeError from the <script>'s src, the widget's policy refused by
 * the CSP), or the file could not be loaded; `effect`: what that leaves undone.
 */
export const notLoaded = (what: string, file: string, failure: unknown, effect = '') =>
  failure instanceof TypeError && policyRefused()
    ? `The ${what} cannot load under this page's Trusted Types policy: add \`referral-widget\` to the CSP's trusted-types directive.`
    : `The ${what} could not be loaded from ${file} beside the script${effect}.`

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
