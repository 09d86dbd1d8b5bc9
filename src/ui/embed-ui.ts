// The script tag's UI chunk: loaded only when the page has a panel or banner element.
import type { Referral } from '../core/create-referral.ts'
import { mountBanner, mountPanel, type UiOptions } from './mount.ts'

export function mountAll(referral: Referral, options: UiOptions) {
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
