// The share row's "QR code" control. The dialog and the encoder are not in this file: they come
// on first use (qr/load.ts), so a page with the panel downloads them only when someone asks.
import { Component } from 'preact'
import { error as logError } from '../shared/log.ts'
import type { Messages } from './messages/index.ts'
import { loadQr } from './qr/load.ts'

interface Props {
  url: string
  messages: Messages
}

export class QrControl extends Component<Props, { failed: boolean; open: boolean }> {
  override state = { failed: false, open: false }

  open = (event: Event) => {
    const control = event.currentTarget as HTMLButtonElement
    const { url, messages } = this.props
    loadQr().then(
      ({ openQrDialog }) => {
        this.setState({ failed: false, open: true })
        const dialog = openQrDialog({ control, url, texts: messages })
        dialog.addEventListener('close', () => this.setState({ open: false }))
      },
      (failure: unknown) => {
        logError(failure instanceof Error ? failure.message : String(failure))
        this.setState({ failed: true })
      },
    )
  }

  override render() {
    const { messages } = this.props
    return (
      <>
        <button
          type="button"
          data-network="qr"
          aria-haspopup="dialog"
          aria-expanded={this.state.open}
          onClick={this.open}
        >
          {messages.qr}
        </button>
        {this.state.failed && (
          <span class="note" role="alert" data-part="qr-error">
            {messages.qrFailed}
          </span>
        )}
      </>
    )
  }
}
