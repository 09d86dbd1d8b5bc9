// How the script tag's file and the files beside it find each other. A sibling is a classic
// script (a module fetched from another origin would need CORS headers): it hands its part over
// by calling the function the script tag's file put under a well-known symbol. When the script
// tag carries `integrity`, every sibling is loaded with its own hash, built into the script
// tag's file, so a changed file beside it never runs.
import type { ReferralInternals } from '../core/types.ts'
import type { UiOptions } from '../ui/mount.ts'

export const PART_READY = Symbol.for('referral-widget.part')

/** What the UI file offers: the panel and the banner. */
export interface Part {
  /** `integrity`: the script tag was pinned by SRI, so the UI pins the files it loads too. */
  mountAll(referral: ReferralInternals, options: UiOptions & { integrity?: boolean }): void
}

/** Subresource Integrity hashes of the sibling files, by name; filled in by the build. */
declare const __SIBLING_INTEGRITY__: Record<string, string> | undefined
const HASHES: Record<string, string> =
  typeof __SIBLING_INTEGRITY__ === 'undefined' ? {} : __SIBLING_INTEGRITY__

/**
 * Loads `file` from beside the script tag's file. `pinned`: that file was loaded with an
 * integrity hash, so the sibling must carry one too, or it is not loaded at all.
 */
export function loadSibling(file: string, besides: string, pinned: boolean): Promise<Part> {
  return new Promise((resolve, reject) => {
    const hash = HASHES[file]
    if (pinned && !hash) {
      reject(new Error(`no integrity hash is built in for ${file}`))
      return
    }
    ;(globalThis as Record<symbol, unknown>)[PART_READY] = resolve
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
export function handOver(part: Part) {
  const ready = (globalThis as Record<symbol, unknown>)[PART_READY]
  if (typeof ready === 'function') (ready as (part: Part) => void)(part)
}
