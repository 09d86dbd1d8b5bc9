// The script tag's UI file (`referral-widget-ui[-xx].js`): loaded only when the page has a panel
// or banner element. It carries the panel and the banner, in one language, with the rest of the
// core they read (campaign, link, stores), and loads the QR file beside it when the QR control
// is used.
import { attachExtras } from '../core/extras.ts'
import type { ReferralInternals } from '../core/types.ts'
import { mountBanner, mountPanel, type UiOptions } from '../ui/mount.ts'
import { configureQrScript } from '../ui/qr/load-script.ts'
import { handOver } from './siblings.ts'

// This file's own address, read while it runs: the QR file sits beside it.
const ownSrc = (document.currentScript as HTMLScriptElement | null)?.src ?? ''

function mountAll(referral: ReferralInternals, options: UiOptions & { integrity?: boolean }) {
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

handOver('ui', { attach: attachExtras, mountAll })
