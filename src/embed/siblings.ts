// How the script tag's file and the files beside it find each other. A sibling is a classic
// script (a module fetched from another origin would need CORS headers): it hands its part over
// by calling the function the script tag's file put under a well-known symbol, naming which
// part it is, so two siblings loading at once are never taken for each other. When the script
// tag carries `integrity`, every sibling is loaded with its own hash, built into the script
// tag's file, so a changed file beside it never runs.
import type { attributionCookie } from '../core/attribution-cookie.ts'
import type { ExtrasOptions } from '../core/extras.ts'
import type { outboundLinks } from '../core/outbound.ts'
import type { Tracker } from '../core/tracker.ts'
import type { ReferralInternals } from '../core/types.ts'
import { scriptUrl } from '../shared/trusted-script-url.ts'
import type { UiLanguage } from '../ui/messages/languages.ts'
import type { Messages } from '../ui/messages/messages.ts'
import type { RawUiAttributes } from './ui-attributes.ts'

export const PART_READY = Symbol.for('referral-widget.part')

export interface MountAllOptions {
  /** The panel's attributes of the script tag, as written (read by the UI file). */
  attributes?: RawUiAttributes | undefined
  /** The script tag was pinned by SRI: the files the UI file loads are pinned too. */
  integrity?: boolean
  /** The built-in language the page gets (the tracking file's choice, so both agree). */
  language?: UiLanguage
  /** Its messages file, already on its way (sent by the tracking file when not pinned). */
  builtIn?: Promise<Parts['messages']> | undefined
}

/** What a later-loaded file offers: the rest of the core, and (the UI file) the panel. */
export interface Part {
  /** Campaign, link, banner state and stores, on the tracking part. */
  attach(tracker: Tracker, options: ExtrasOptions): ReferralInternals
  /** Mounts every panel and banner of the page (once its language's messages are there). */
  mountAll?(referral: ReferralInternals, options: MountAllOptions): void
}

/** Each file beside the tracking file, by the name it hands its part over with. */
export interface Parts {
  ui: Part
  link: Part
  /** The attribution cookie's module, for pages that set data-cookie-domain. */
  cookie: { sharedCookie: typeof attributionCookie }
  /** The hand-off to the site's other domains, for pages that set data-outbound. */
  outbound: { outboundLinks: typeof outboundLinks }
  /** One built-in language's messages, for the UI file (which carries English). */
  messages: { language: UiLanguage; messages: Messages }
}

export type PartName = keyof Parts

/** Subresource Integrity hashes of the sibling files, by name; filled in by the build. */
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
 * one the tracking file carries for it), or it is not loaded at all.
 */
export function loadSibling<N extends PartName>(
  name: N,
  file: string,
  besides: string,
  pinned: boolean,
  hash: string | undefined = HASHES[file],
): Promise<Parts[N]> {
  return new Promise((resolve, reject) => {
    if (pinned && !hash) {
      reject(new Error(`no integrity hash is built in for ${file}`))
      return
    }
    ;(waiting() as Record<N, (part: Parts[N]) => void>)[name] = resolve
    const script = document.createElement('script')
    // Under Trusted Types without the widget's policy this throws, and the promise is rejected.
    script.src = scriptUrl(new URL(file, besides).href)
    if (pinned && hash) {
      script.integrity = hash
      script.crossOrigin = 'anonymous'
    }
    script.onerror = () => reject(new Error(`could not load ${file}`))
    document.head.append(script)
  })
}

/** Called by a sibling file when it runs. */
export function handOver<N extends PartName>(name: N, part: Parts[N]) {
  const ready = waiting()[name] as ((part: Parts[N]) => void) | undefined
  delete waiting()[name]
  ready?.(part)
}
