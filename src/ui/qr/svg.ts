// A QR code as SVG and as PNG: dark modules on white whatever the theme (scanners expect dark on
// light), with the four-module quiet zone the standard asks for.
import type { QrCode } from './encode.ts'

export const QUIET_ZONE = 4

/** One path for all dark modules: a unit square per module, in module coordinates. */
export function qrPath(code: QrCode): string {
  let d = ''
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) {
      if (code.dark(x, y)) d += `M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`
    }
  }
  return d
}

/** The side of the whole image in modules, quiet zone included. */
export const qrExtent = (code: QrCode) => code.size + 2 * QUIET_ZONE

/** A standalone SVG file of the code. */
export function qrSvgFile(code: QrCode, title: string): string {
  const n = qrExtent(code)
  const escaped = title.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`)
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n} ${n}" width="${n * 8}" height="${n * 8}" shape-rendering="crispEdges"><title>${escaped}</title><rect width="${n}" height="${n}" fill="#fff"/><path fill="#000" d="${qrPath(code)}"/></svg>`
}

/** The code drawn on a canvas, `scale` pixels a module, as a PNG file. */
export function qrPngFile(code: QrCode, scale = 8): Promise<Blob> {
  const n = qrExtent(code)
  const canvas = document.createElement('canvas')
  canvas.width = canvas.height = n * scale
  const context = canvas.getContext('2d')
  if (!context) return Promise.reject(new Error('no 2D canvas'))
  context.fillStyle = '#fff'
  context.fillRect(0, 0, n * scale, n * scale)
  context.fillStyle = '#000'
  for (let y = 0; y < code.size; y++)
    for (let x = 0; x < code.size; x++)
      if (code.dark(x, y))
        context.fillRect((x + QUIET_ZONE) * scale, (y + QUIET_ZONE) * scale, scale, scale)
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no PNG'))), 'image/png'),
  )
}

/** Saves a file through a temporary link (no server round trip). */
export function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
