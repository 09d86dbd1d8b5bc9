// How the script tag's file and the files beside it find each other. A sibling is a classic
// script (a module fetched from another origin would need CORS headers): it hands its part over
// by calling the function the script tag's file put under a well-known symbol, naming which
// part it is, so two siblings loading at once are never taken for each other. When the script
// tag carries `integrity`, every sibling is loaded with its own hash, built into the script
// tag's file, so a changed file beside it never runs.
import type { attributionCookie } from '../core/attribution-cookie.ts'
import type { ExtrasOptions } from '../core/extras.ts'
import type { Tracker } from '../core/tracker.ts'
import type { ReferralInternals } from '../core/types.ts'
import type { UiOptions } from '../ui/mount.ts'

export const PART_READY = Symbol.for('referral-widget.part')

/** What a later-loaded file offers: the rest of the core, and (the UI file) the panel. */
export interface Part {
  /** Campaign, link, banner state and stores, on the tracking part. */
  attach(tracker: Tracker, options: ExtrasOptions): ReferralInternals
  /** `integrity`: the script tag was pinned by SRI, so the UI pins the files it loads too. */
  mountAll?(referral: ReferralInternals, options: UiOptions & { integrity?: boolean }): void
}

/** Each file beside the tracking file, by the name it hands its part over with. */
export interface Parts {
  ui: Part
  link: Part
  /** The attribution cookie's module, for pages that set data-cookie-domain. */
  cookie: { sharedCookie: typeof attributionCookie }
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
 * Loads `file` from beside the script tag's file. `pinned`: that file was loaded with an
 * integrity hash, so the sibling must carry one too, or it is not loaded at all.
 */
export function loadSibling<N extends PartName>(
  name: N,
  file: string,
  besides: string,
  pinned: boolean,
): Promise<Parts[N]> {
  return new Promise((resolve, reject) => {
    const hash = HASHES[file]
    if (pinned && !hash) {
      reject(new Error(`no integrity hash is built in for ${file}`))
      return
    }
    ;(waiting() as Record<N, (part: Parts[N]) => void>)[name] = resolve
    const script = document.createElement('script')
    script.src = new URL(file, besides).href
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
