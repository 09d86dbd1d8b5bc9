// The QR encoder: lean-qr's "nano" build (ISO 18004, about 2 KB gzip). Share links are always
// ASCII (URLs come out of `new URL()` percent-encoded), which is all nano needs to handle.
import { correction, generate } from 'lean-qr/nano'

/** A QR code's modules: `dark(x, y)` for 0 <= x, y < size. */
export interface QrCode {
  size: number
  dark(x: number, y: number): boolean
}

export type QrEncoder = (text: string) => QrCode

/** Medium error correction: still readable from a creased flyer, not much bigger than Low. */
export const encodeQr: QrEncoder = (text) => {
  const code = generate(text, { minCorrectionLevel: correction.M })
  return { size: code.size, dark: (x, y) => code.get(x, y) }
}
