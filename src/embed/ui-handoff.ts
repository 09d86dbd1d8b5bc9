// How the script tag and its UI chunk find each other: the script tag puts a callback under a
// well-known symbol and adds the chunk's <script>; the chunk calls it with its mount function.
import type { Referral } from '../core/create-referral.ts'
import type { UiOptions } from '../ui/mount.ts'

export const UI_READY = Symbol.for('referral-widget.ui-ready')

export interface UiModule {
  /** `integrity`: the script tag was pinned by SRI, so the UI pins the files it loads too. */
  mountAll(referral: Referral, options: UiOptions & { integrity?: boolean }): void
}

/** Loads the UI chunk beside the script tag's own file. */
export function loadUi(src: string): Promise<UiModule> {
  return new Promise((resolve, reject) => {
    ;(globalThis as Record<symbol, unknown>)[UI_READY] = resolve
    const script = document.createElement('script')
    script.src = src
    script.async = true
    script.onerror = () => reject(new Error(`could not load ${src}`))
    document.head.append(script)
  })
}
