// The panel as a modal dialog: the native <dialog> in the widget's shadow root, shown with
// showModal() (the page behind it inert, focus moved in and kept in, Escape closes it), labelled
// by the campaign's headline (before it, the launcher's name), with a close button
// (`data-part="close"`). Closing gives the focus back to what opened it, without scrolling the
// page. It opens and closes as the core's $dialog says (open(), close(), prompt()); a campaign
// that turns out to be empty closes it.
import { createRef } from 'preact'
import type { ReferralInternals as Referral } from '../../core/types.ts'
import { formatReward } from '../format.ts'
import { headline, Panel, type UiSettings } from '../Panel.tsx'
import { StoreView } from '../store-view.ts'

export class PanelDialog extends StoreView<{ source: Referral; ui: UiSettings }> {
  dialog = createRef<HTMLDialogElement>()
  /** Where the focus goes back to on close. */
  returnTo: Element | null = null

  watched() {
    return [this.props.source.$dialog, this.props.source.$campaign]
  }

  override componentDidUpdate() {
    const { source, ui } = this.props
    const dialog = this.dialog.current
    if (!dialog) return
    const state = source.$dialog.get()
    const campaign = source.$campaign.get()
    // Shown: the launcher is named by the headline from now on.
    if (state.open && campaign.status === 'ready') {
      const { referredReward, referrerReward } = campaign.campaign
      source.nameLauncher(
        headline(
          ui.messages,
          formatReward(referredReward, ui.locale),
          formatReward(referrerReward, ui.locale),
        ),
      )
    }
    const show = state.open && campaign.status !== 'empty'
    if (state.open && !show) source.close()
    else if (show && !dialog.open) {
      this.returnTo = state.opener ?? deepActiveElement()
      try {
        dialog.showModal()
      } catch {
        // Not in a document (the page swapped its body): the next open() mounts it again.
        source.close()
      }
    } else if (!show && dialog.open) dialog.close()
  }

  /** The dialog closed (Escape, its button, close()): the core hears it, the focus goes back. */
  closed = () => {
    this.props.source.close()
    const back = this.returnTo as HTMLElement | null
    this.returnTo = null
    if (back?.isConnected) back.focus({ preventScroll: true })
  }

  override render() {
    const { source, ui } = this.props
    const ready = source.$campaign.get().status === 'ready'
    return (
      <dialog
        ref={this.dialog}
        class="dialog"
        data-part="dialog"
        dir={ui.dir}
        lang={ui.locale}
        aria-labelledby={ready ? 'referral-headline' : undefined}
        aria-label={ready ? undefined : ui.messages.referFriend}
        onClose={this.closed}
      >
        <Panel source={source} ui={ui} onClose={() => source.close()} />
      </dialog>
    )
  }
}

/** The focused element, inside shadow roots too. */
function deepActiveElement(): Element | null {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  return active
}
