// Where the panel gets the QR dialog (and its encoder). In the package (Preact component, custom
// element) it is a dynamic import: the host's bundler puts it in a chunk of its own, fetched on
// first use. The script tag's UI files replace this module with load-script.ts
// (vite.lib.config.ts), which fetches referral-widget-qr.js from beside the script.
import type { openQrDialog } from './dialog.ts'

export interface QrModule {
  openQrDialog: typeof openQrDialog
}

export const loadQr = (): Promise<QrModule> => import('./dialog.ts')
