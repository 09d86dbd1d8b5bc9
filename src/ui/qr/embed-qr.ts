// The script tag's QR file (referral-widget-qr.js): the dialog and the encoder, fetched by the
// panel only when the QR code control is used. A classic script, like the UI file, so no CORS is
// needed (with integrity it is pinned by the hash the UI file carries).
import { openQrDialog } from './dialog.ts'
import { QR_READY } from './handoff.ts'

const ready = (globalThis as Record<symbol, unknown>)[QR_READY]
if (typeof ready === 'function') ready({ openQrDialog })
