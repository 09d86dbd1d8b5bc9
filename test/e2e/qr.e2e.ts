// The QR code dialog in Chromium: the code decodes (jsQR) back to exactly the share URL, from a
// screenshot and from the exported PNG, in both themes and at 280 px; keyboard open and close;
// axe in the open dialog; the QR file is fetched only once the control is used, pinned by SRI
// when the script tag is. The light and dark dialogs are the README's pictures: compared with
// docs/screenshots/qr-dialog-*.png (see support/screenshots.ts).
import { readFileSync } from 'node:fs'
import jsQR from 'jsqr'
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { READY_ROOT } from './support/in-page.ts'
import {
  expectCommittedScreenshot,
  FIXED_LANDING,
  fixedFont,
  fixedLink,
  still,
} from './support/screenshots.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()
const AXE = readFileSync(
  join(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'),
  'utf8',
)
const INTEGRITY = () =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '../../dist/integrity.json'), 'utf8'),
  ) as Record<string, string>

import { join } from 'node:path'

const scriptsFetched = () =>
  h.service.requests
    .map((request) => request.path.split('?')[0] ?? '')
    .filter((path) => path.endsWith('.js'))

async function openPanel(
  options: {
    theme?: 'light' | 'dark'
    width?: number
    attributes?: Record<string, string>
    scriptAttributes?: string
    /** The same share link every run, for a picture compared with its committed PNG. */
    fixed?: boolean
  } = {},
): Promise<Page> {
  const theme = options.theme ?? 'light'
  const fixedUrl = options.fixed ? fixedLink(h.service, 'alice') : null
  const url = h.host.page('/', {
    html: widgetPage(h.service, {
      head: `${fixedFont()}<style>body { margin: 0; padding: 16px; background: ${
        theme === 'dark' ? '#0e0f12; color: #f2f3f5' : '#f4f5f7'
      } } main { max-width: 440px }</style>`,
      attributes: {
        'user-id': 'alice',
        theme,
        locale: 'en-US',
        ...(fixedUrl ? { 'landing-url': FIXED_LANDING } : {}),
        ...options.attributes,
      },
      ...(options.scriptAttributes ? { scriptAttributes: options.scriptAttributes } : {}),
    }),
  })
  const context = await h.newContext({
    viewport: { width: options.width ?? 520, height: 720 },
    deviceScaleFactor: 1,
    colorScheme: theme,
    reducedMotion: 'reduce',
    acceptDownloads: true,
  })
  const { page } = await h.open(context)
  await page.goto(url)
  await page.locator(READY_ROOT).waitFor()
  await page.locator('[data-part="link"]').waitFor()
  if (fixedUrl) {
    await expect.poll(() => page.locator('[data-part="link"]').inputValue()).toBe(fixedUrl)
  }
  return page
}

/** Decodes a PNG with jsQR: Chromium turns it into pixels, jsQR reads them. */
async function decodePng(page: Page, png: Buffer): Promise<string | undefined> {
  const image = await page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
    const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D
    context.drawImage(bitmap, 0, 0)
    const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data
    return { width: bitmap.width, height: bitmap.height, data: Array.from(data) }
  }, png.toString('base64'))
  return jsQR(Uint8ClampedArray.from(image.data), image.width, image.height)?.data
}

const focused = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
    return active?.getAttribute('data-part') ?? active?.getAttribute('data-network') ?? null
  })

async function openByKeyboard(page: Page) {
  await page.locator('[data-network="qr"]').focus()
  await page.keyboard.press('Enter')
  await page.locator('[data-part="qr"][open] [data-part="qr-code"]').waitFor()
}

for (const theme of ['light', 'dark'] as const) {
  it(`${theme}: the code decodes to exactly the share URL, from a screenshot and the PNG`, async () => {
    const page = await openPanel({ theme, fixed: true })
    const shareUrl = await page.locator('[data-part="link"]').inputValue()
    expect(scriptsFetched()).not.toContain('/referral-widget-qr.js')

    await openByKeyboard(page)
    expect(scriptsFetched().filter((path) => path === '/referral-widget-qr.js')).toHaveLength(1)
    const dialog = page.locator('[data-part="qr"]')
    expect(await focused(page)).toBe('qr-close')

    const shot = await still(page, dialog)
    expect(await decodePng(page, shot)).toBe(shareUrl)
    expectCommittedScreenshot(`qr-dialog-${theme}`, shot)
    const svgShot = await page.locator('[data-part="qr-code"]').screenshot()
    expect(await decodePng(page, svgShot)).toBe(shareUrl)

    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-part="qr-png"]').click(),
    ])
    expect(png.suggestedFilename()).toBe('referral-qr.png')
    const file = readFileSync((await png.path()) as string)
    expect(await decodePng(page, file)).toBe(shareUrl)

    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-part="qr-svg"]').click(),
    ])
    expect(svg.suggestedFilename()).toBe('referral-qr.svg')
    const svgText = readFileSync((await svg.path()) as string, 'utf8')
    expect(svgText).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect(svgText).toContain(`<title>QR code of ${shareUrl.replace(/&/g, '&#38;')}</title>`)
  })
}

it('at 280 px wide the dialog fits and the code still decodes', async () => {
  const page = await openPanel({ width: 280 })
  const shareUrl = await page.locator('[data-part="link"]').inputValue()
  await openByKeyboard(page)
  const box = await page.locator('[data-part="qr"]').boundingBox()
  expect(box?.x).toBeGreaterThanOrEqual(0)
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(280)
  // Taken still (fonts in, animations stopped), as the committed pictures are: a busy machine
  // caught the dialog mid-way otherwise.
  const shot = await still(page, page.locator('[data-part="qr-code"]'))
  expect(await decodePng(page, shot)).toBe(shareUrl)
})

it('keyboard: Enter and Space open it, Escape closes it, focus returns to the control', async () => {
  const page = await openPanel()
  await openByKeyboard(page)
  await page.keyboard.press('Escape')
  await expect.poll(() => page.locator('[data-part="qr"]').count(), FAST).toBe(0)
  expect(await focused(page)).toBe('qr')

  await page.keyboard.press('Space')
  await page.locator('[data-part="qr"][open]').waitFor()
  await page.keyboard.press('Tab')
  await page.keyboard.press('Shift+Tab')
  expect(await focused(page)).toBe('qr-close')
  await page.keyboard.press('Enter')
  await expect.poll(() => page.locator('[data-part="qr"]').count(), FAST).toBe(0)
  expect(await focused(page)).toBe('qr')
})

it('axe finds nothing serious or critical in the open dialog; the code is named by the link', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const page = await openPanel({ theme })
    const shareUrl = await page.locator('[data-part="link"]').inputValue()
    await openByKeyboard(page)
    expect(await page.locator('[data-part="qr-code"]').getAttribute('aria-label')).toBe(
      `QR code of ${shareUrl}`,
    )
    await page.addScriptTag({ content: AXE })
    const findings = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run(
              context: Document,
            ): Promise<{ violations: Array<{ id: string; impact?: string | null }> }>
          }
        }
      ).axe
      const results = await axe.run(document)
      return results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        nodes: (
          violation as unknown as { nodes: Array<{ target: unknown; failureSummary: string }> }
        ).nodes.map((node) => [node.target, node.failureSummary]),
      }))
    })
    expect(
      findings.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical'),
      JSON.stringify(findings),
    ).toEqual([])
  }
})

it('weight: tracking-only and panel pages fetch what they did before; the QR file only on use', async () => {
  // A quiet page that only tracks: the loader alone.
  const trackingUrl = h.host.page('/tracking', { html: widgetPage(h.service, { panel: false }) })
  const context = await h.newContext()
  const { page } = await h.open(context)
  await page.goto(trackingUrl)
  await page.waitForFunction(
    () => typeof (window as { Referral?: unknown }).Referral === 'function',
  )
  expect(scriptsFetched()).toEqual(['/referral-widget.js'])

  // A page with the panel: the loader, its tracking part and the UI file (asked for together),
  // until the control is used; then the QR file.
  h.service.requests.length = 0
  const panel = await openPanel()
  const panelFiles = [
    '/referral-widget-tracking.js',
    '/referral-widget-ui.js',
    '/referral-widget.js',
  ]
  expect(scriptsFetched().sort()).toEqual(panelFiles)
  await openByKeyboard(panel)
  expect(scriptsFetched().sort()).toEqual([...panelFiles, '/referral-widget-qr.js'].sort())
  expect(scriptsFetched().at(-1)).toBe('/referral-widget-qr.js')
})

it('SRI: with integrity on the script tag, the QR file is loaded with its hash and crossorigin', async () => {
  const integrity = INTEGRITY()
  const page = await openPanel({
    scriptAttributes: ` integrity="${integrity['referral-widget.js']}" crossorigin="anonymous"`,
  })
  const shareUrl = await page.locator('[data-part="link"]').inputValue()
  await openByKeyboard(page)
  const script = page.locator('script[src$="/referral-widget-qr.js"]')
  expect(await script.getAttribute('integrity')).toBe(integrity['referral-widget-qr.js'])
  expect(await script.getAttribute('crossorigin')).toBe('anonymous')
  // Taken still (fonts in, animations stopped), as the committed pictures are: a busy machine
  // caught the dialog mid-way otherwise.
  const shot = await still(page, page.locator('[data-part="qr-code"]'))
  expect(await decodePng(page, shot)).toBe(shareUrl)
})
