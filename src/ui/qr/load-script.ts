// The script tag's way to the QR dialog and encoder: referral-widget-qr.js, beside the UI file, added as a
// <script> on first use. When the script tag itself was pinned with `integrity`, the QR file is
// pinned too, by the hash the build wrote into this UI file; without a hash it is not loaded.
import { ownScript } from '../../shared/trusted-script-url.ts'
import { QR_FILE, QR_READY } from './handoff.ts'
import type { QrModule } from './load.ts'

declare const __REFERRAL_QR_INTEGRITY__: string | undefined

/** The QR file's Subresource Integrity hash, written in by the build ('' when not built). */
export const QR_INTEGRITY =
  typeof __REFERRAL_QR_INTEGRITY__ === 'string' ? __REFERRAL_QR_INTEGRITY__ : ''

export class QrLoadError extends Error {
  override readonly name = 'QrLoadError'
  constructor(
    readonly src: string,
    readonly reason: 'no-integrity' | 'failed',
  ) {
    super(
      reason === 'no-integrity'
        ? `${src} is not loaded: the script tag is pinned with integrity, and this build has no hash for it.`
        : `The QR code could not be loaded from ${src}.`,
    )
  }
}

let settings = { base: '', sri: false }
let pending: Promise<QrModule> | undefined

/** Called by the UI file on mount: where the files are, and whether the script tag used SRI. */
export function configureQrScript(next: { base: string; sri: boolean }) {
  settings = next
}

export function loadQr(integrity = QR_INTEGRITY): Promise<QrModule> {
  pending ??= new Promise<QrModule>((resolve, reject) => {
    const src = new URL(QR_FILE, settings.base || document.baseURI).href
    if (settings.sri && !integrity) throw new QrLoadError(src, 'no-integrity')
    ;(globalThis as Record<symbol, unknown>)[QR_READY] = resolve
    const script = ownScript('script', src)
    script.async = true
    if (settings.sri) {
      script.integrity = integrity
      script.crossOrigin = 'anonymous'
    }
    script.onerror = () => reject(new QrLoadError(src, 'failed'))
    document.head.append(script)
  }).catch((failure: unknown) => {
    pending = undefined // the next use tries again
    throw failure
  })
  return pending
}
