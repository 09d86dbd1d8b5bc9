// Mounting the panel's dialog: into a host element of the page's (the components' and the
// element's dialog variant), or, for the script tag, into a host of its own at the end of the
// page's body, made when the dialog first opens and made again when the page swapped its body.
import { h, render } from 'preact'
import type { ReferralInternals as Referral } from '../../core/types.ts'
import { containerOf, type UiOptions, uiSettings } from '../mount.ts'
import { PanelDialog } from './PanelDialog.tsx'

/** Renders the dialog into `host` (it shows when the core opens it); returns what removes it. */
export function mountDialog(host: Element, referral: Referral, options?: UiOptions): () => void {
  const container = containerOf(host)
  // Opened: the campaign (once) and the referrer's results as they are now.
  const stop = referral.$dialog.subscribe((state) => {
    if (!state.open) return
    referral.needCampaign()
    referral.refreshSummary()
  })
  render(h(PanelDialog, { source: referral, ui: uiSettings(referral, options) }), container)
  return () => {
    stop()
    render(null, container)
  }
}

/**
 * The script tag's dialog: a host of its own (`data-referral-dialog`) appended to the body when
 * the dialog opens and none is on the page. Returns what removes it.
 */
export function pageDialog(referral: Referral, options?: UiOptions): () => void {
  let host: Element | undefined
  let unmount = () => {}
  const place = () => {
    if (host?.isConnected) return
    unmount()
    host = document.createElement('div')
    host.setAttribute('data-referral-dialog', '')
    document.body.append(host)
    unmount = mountDialog(host, referral, options)
  }
  const stop = referral.$dialog.subscribe((state) => {
    if (state.open) place()
  })
  return () => {
    stop()
    unmount()
    host?.remove()
  }
}
