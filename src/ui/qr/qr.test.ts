// @vitest-environment happy-dom
// The QR code: what the encoder and the SVG path hold decodes back to exactly the link (jsQR),
// and the script tag's loader pins the QR file by SRI exactly when the script tag is pinned.
import jsQR from 'jsqr'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { encodeQr, type QrCode } from './encode.ts'
import { QR_READY } from './handoff.ts'
import { QUIET_ZONE, qrExtent, qrPath, qrSvgFile } from './svg.ts'

/** The image as pixels, `scale` pixels a module, from the dark modules' coordinates. */
function pixels(extent: number, darkModules: Iterable<[number, number]>, scale = 4) {
  const width = extent * scale
  const data = new Uint8ClampedArray(width * width * 4).fill(255)
  for (const [x, y] of darkModules)
    for (let dy = 0; dy < scale; dy++)
      for (let dx = 0; dx < scale; dx++) {
        const i = ((y * scale + dy) * width + x * scale + dx) * 4
        data[i] = data[i + 1] = data[i + 2] = 0
      }
  return { data, width }
}

/** The dark modules as the SVG path draws them ("M<x> <y>h1v1h-1z" per module). */
const fromPath = (d: string) =>
  [...d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map(
    ([, x, y]) => [Number(x), Number(y)] as [number, number],
  )

function decodeSvgPath(code: QrCode): string | undefined {
  const { data, width } = pixels(qrExtent(code), fromPath(qrPath(code)))
  return jsQR(data, width, width)?.data
}

const LINKS = [
  'https://shop.example/?ref=ABCD1234',
  'https://shop.example/join?utm=a&b=c&ref=Z9Y8X7W6&utm_source=qr&utm_medium=referral',
  `https://shop.example/${'long-path/'.repeat(20)}?ref=QWERTY12`,
  'https://xn--bcher-kva.example/%C3%BC?ref=ABCD1234',
]

describe('the QR code', () => {
  it.each(LINKS)('decodes back to exactly %s', (url) => {
    expect(decodeSvgPath(encodeQr(url))).toBe(url)
  })

  it('keeps a quiet zone of four modules on every side', () => {
    const code = encodeQr(LINKS[0] as string)
    const modules = fromPath(qrPath(code))
    const extent = qrExtent(code)
    expect(extent).toBe(code.size + 2 * QUIET_ZONE)
    for (const [x, y] of modules) {
      expect(x).toBeGreaterThanOrEqual(QUIET_ZONE)
      expect(y).toBeGreaterThanOrEqual(QUIET_ZONE)
      expect(x).toBeLessThan(extent - QUIET_ZONE)
      expect(y).toBeLessThan(extent - QUIET_ZONE)
    }
  })

  it('the SVG file is dark on white, titled with the link, markup in the title escaped', () => {
    const file = qrSvgFile(encodeQr('https://a.example/?ref=X'), 'QR code of <x>&"')
    expect(file).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+"/)
    expect(file).toContain('<title>QR code of &#60;x&#62;&#38;&#34;</title>')
    expect(file).toContain('fill="#fff"')
    expect(file).toContain('<path fill="#000" d="M')
  })
})

describe('the script tag’s QR loader', () => {
  const BASE = 'https://cdn.example/widget/referral-widget-ui-de.js'
  const QR_SRC = 'https://cdn.example/widget/referral-widget-qr.js'

  /** A fresh copy of the loader, as a new page has it. */
  async function loader(settings: { base: string; sri: boolean }) {
    vi.resetModules()
    const module = await import('./load-script.ts')
    module.configureQrScript(settings)
    return module
  }
  // The scripts the loader adds, kept out of the document (happy-dom does not run files).
  let scripts: HTMLScriptElement[] = []
  beforeEach(() => {
    scripts = []
    vi.spyOn(document.head, 'append').mockImplementation((...nodes) => {
      scripts.push(...(nodes as HTMLScriptElement[]))
    })
  })
  const added = () => scripts
  const deliver = (module: unknown) =>
    (globalThis as unknown as Record<symbol, (value: unknown) => void>)[QR_READY]?.(module)
  const qrModule = { openQrDialog: () => document.createElement('dialog') }

  afterEach(() => {
    vi.restoreAllMocks()
    Reflect.deleteProperty(globalThis, QR_READY)
  })

  it('fetches referral-widget-qr.js from beside the UI file, once, unpinned without SRI', async () => {
    const { loadQr } = await loader({ base: BASE, sri: false })
    const loading = loadQr('sha384-abc')
    expect(added().map((script) => script.src)).toEqual([QR_SRC])
    expect(added()[0]?.hasAttribute('integrity')).toBe(false)
    expect(added()[0]?.hasAttribute('crossorigin')).toBe(false)
    deliver(qrModule)
    await expect(loading).resolves.toBe(qrModule)
    await expect(loadQr('sha384-abc')).resolves.toBe(qrModule)
    expect(added()).toHaveLength(1)
  })

  it('with SRI on the script tag: the build’s hash as integrity, and crossorigin="anonymous"', async () => {
    const { loadQr } = await loader({ base: BASE, sri: true })
    const loading = loadQr('sha384-pinned')
    const [script] = added()
    expect(script?.getAttribute('integrity')).toBe('sha384-pinned')
    expect(script?.getAttribute('crossorigin')).toBe('anonymous')
    deliver(qrModule)
    await expect(loading).resolves.toBe(qrModule)
  })

  it('with SRI on the script tag and no hash built in: not loaded at all', async () => {
    const { loadQr } = await loader({ base: BASE, sri: true })
    const failure = await loadQr('').catch((error: unknown) => error)
    expect(failure).toMatchObject({ name: 'QrLoadError', reason: 'no-integrity', src: QR_SRC })
    expect((failure as Error).message).toMatch(
      /not loaded: the script tag is pinned with integrity/,
    )
    expect(added()).toEqual([])
  })

  it('a file that fails to load is reported, and the next use tries again', async () => {
    const { loadQr } = await loader({ base: BASE, sri: false })
    const first = loadQr('')
    added()[0]?.onerror?.(new Event('error'))
    await expect(first).rejects.toMatchObject({ name: 'QrLoadError', reason: 'failed' })
    const second = loadQr('')
    expect(added()).toHaveLength(2)
    deliver(qrModule)
    await expect(second).resolves.toBe(qrModule)
  })
})
