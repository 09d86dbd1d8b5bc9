// The script tag's UI chunk: loaded only when the page has a panel or banner element. It is a
// classic script (a module fetched from another origin would need CORS headers), which hands
// its mount function to the script tag through a well-known symbol.
import type { Referral } from '../core/create-referral.ts'
import { UI_READY, type UiModule } from '../embed/ui-handoff.ts'
import { mountBanner, mountPanel, type UiOptions } from './mount.ts'
import { configureQrScript } from './qr/load-script.ts'

// This file's own address, read while it runs: the QR file sits beside it.
const ownSrc = (document.currentScript as HTMLScriptElement | null)?.src ?? ''

function mountAll(referral: Referral, options: UiOptions & { integrity?: boolean }) {
  configureQrScript({ base: ownSrc, sri: options.integrity === true })
  const unmounts: Array<() => void> = []
  for (const element of document.querySelectorAll('[data-referral-widget]')) {
    unmounts.push(mountPanel(element, referral, options))
  }
  for (const element of document.querySelectorAll('[data-referral-banner]')) {
    unmounts.push(mountBanner(element, referral, options))
  }
  referral.on('destroyed', () => {
    for (const unmount of unmounts.splice(0)) unmount()
  })
}

const ready = (globalThis as Record<symbol, unknown>)[UI_READY]
if (typeof ready === 'function') (ready as (module: UiModule) => void)({ mountAll })
