// Screenshots of the panel (light, dark, right to left, a 280 px column), written to
// test/e2e/artifacts/, each with the checks that make it worth looking at. The light and dark
// ones are the README's: compared with docs/screenshots/ (see support/screenshots.ts).
import { writeFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { screenshotPath } from './support/browser.ts'
import { useHarness } from './support/harness.ts'
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

const luminance = (rgb: string) => {
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number)
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
}

async function openPanel(
  path: string,
  attributes: Record<string, string>,
  options: { width?: number; pageBackground?: string; colorScheme?: 'light' | 'dark' } = {},
): Promise<Page> {
  const shareUrl = fixedLink(h.service, 'alice')
  const url = h.host.page(path, {
    html: widgetPage(h.service, {
      head: `${fixedFont()}<style>body { margin: 0; padding: 16px; font-family: serif; background: ${
        options.pageBackground ?? '#f4f5f7'
      } } main { max-width: 440px }</style>`,
      attributes: { 'user-id': 'alice', 'landing-url': FIXED_LANDING, ...attributes },
    }),
  })
  const context = await h.newContext({
    viewport: { width: options.width ?? 520, height: 640 },
    deviceScaleFactor: 1,
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  })
  const { page } = await h.open(context)
  await page.goto(url)
  await page.locator(READY_ROOT).waitFor()
  await expect.poll(() => page.locator('[data-part="link"]').inputValue()).toBe(shareUrl)
  return page
}

/** `committed`: one of the README's pictures, compared with docs/screenshots/. */
async function shoot(page: Page, name: string, { committed = false } = {}) {
  const png = await still(page, page.locator('[data-referral-widget]'))
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
  expect(png.length).toBeGreaterThan(1000)
  if (committed) expectCommittedScreenshot(name, png)
  else writeFileSync(screenshotPath(name), png)
}

const rootColors = (page: Page) =>
  page.locator(READY_ROOT).evaluate((element) => {
    const style = getComputedStyle(element)
    return { background: style.backgroundColor, color: style.color }
  })

it('panel-light', async () => {
  const page = await openPanel('/light', { theme: 'light', locale: 'en-US' })
  const colors = await rootColors(page)
  expect(luminance(colors.background)).toBeGreaterThan(0.8)
  expect(luminance(colors.color)).toBeLessThan(0.3)
  expect(await page.locator('[data-part="headline"]').textContent()).toBe('Give $10, get $10')
  await shoot(page, 'panel-light', { committed: true })
})

it('panel-dark', async () => {
  const page = await openPanel(
    '/dark',
    { theme: 'dark', locale: 'en-US' },
    { pageBackground: '#0e0f12', colorScheme: 'dark' },
  )
  const colors = await rootColors(page)
  expect(luminance(colors.background)).toBeLessThan(0.2)
  expect(luminance(colors.color)).toBeGreaterThan(0.8)
  await shoot(page, 'panel-dark', { committed: true })
})

it('panel-rtl (data-locale="ar")', async () => {
  const page = await openPanel('/rtl', { locale: 'ar' })
  const root = page.locator(READY_ROOT)
  expect(await root.getAttribute('dir')).toBe('rtl')
  expect(await root.getAttribute('lang')).toBe('ar')
  expect(await root.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl')
  expect(await page.locator('[data-part="headline"]').textContent()).toMatch(/[\u0600-\u06ff]/)
  // Right to left: the link field starts on the right, the copy button follows on its left.
  const link = await page.locator('[data-part="link"]').boundingBox()
  const copy = await page.locator('[data-part="copy"]').boundingBox()
  if (!link || !copy) throw new Error('the link or the copy button has no box')
  expect(copy.x + copy.width).toBeLessThanOrEqual(link.x + 1)
  await shoot(page, 'panel-rtl')
})

it('panel-narrow (280 px)', async () => {
  const page = await openPanel('/narrow', { locale: 'en-US' }, { width: 280 })
  const fits = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }))
  expect(fits.page, 'no horizontal scrolling').toBeLessThanOrEqual(fits.viewport)
  const root = page.locator(READY_ROOT)
  const overflow = await root.evaluate((element) => element.scrollWidth - element.clientWidth)
  expect(overflow, 'nothing overflows the panel').toBeLessThanOrEqual(0)
  for (const part of ['root', 'headline', 'link', 'copy', 'referrer-reward', 'referred-reward']) {
    const box = await page.locator(`[data-part="${part}"]`).boundingBox()
    expect(box, part).not.toBeNull()
    expect(box?.x ?? -1, part).toBeGreaterThanOrEqual(0)
    expect((box?.x ?? 0) + (box?.width ?? 0), part).toBeLessThanOrEqual(fits.viewport + 0.5)
  }
  expect(await page.locator('[data-part="copy"]').isVisible()).toBe(true)
  await shoot(page, 'panel-narrow')
})
