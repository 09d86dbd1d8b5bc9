// The screenshots the README shows, kept true. Each run writes what it took to
// test/e2e/artifacts/ and compares it, pixel by pixel, with the committed PNG in
// docs/screenshots/; UPDATE_SCREENSHOTS=1 (`npm run screenshots`) writes docs/screenshots/
// instead. What a picture shows is made deterministic by its test: a fixed viewport and device
// scale, reduced motion, no animations or caret, a font the suite brings itself (FIXED_FONT, not
// whatever the machine has installed), loaded, and fixed data (see fixedLink).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import pixelmatch from 'pixelmatch'
import type { Locator, Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { expect } from 'vitest'
import { screenshotPath } from './browser.ts'
import type { ServiceOrigin } from './harness.ts'

export const COMMITTED_DIR = join(import.meta.dirname, '../../../docs/screenshots')
export const UPDATING = process.env.UPDATE_SCREENSHOTS === '1'
export const UPDATE_COMMAND = 'npm run screenshots'

/**
 * Per pixel: pixelmatch's colour distance (0 to 1) below which two pixels are the same, with its
 * anti-aliasing detection on, so a glyph's edge rendered a shade lighter is not a difference.
 */
export const PIXEL_THRESHOLD = 0.1
/**
 * Per picture: the share of pixels that may still differ (0.01 %: 12 pixels of the 440 × 283
 * panel, 14 of the QR dialog). The same machine draws the same pixels run after run (none
 * differ), so this is room for a stray pixel, not for a change: one letter changed in the
 * headline is 16 pixels, a missing button moves the rows under it.
 */
export const MAX_DIFFERENT_SHARE = 0.0001

/** The family the pictures are drawn in: Inter, from the devDependency @fontsource-variable/inter. */
const FIXED_FAMILY = 'Referral Screenshot Sans'

/**
 * Markup for the page's <head>: Inter (one variable file, every weight the panel uses) as a data:
 * URL, given to the widget through its `--referral-font`. The pictures then hold on any machine:
 * its installed fonts (a contributor's, or those a Debian package brings along) are never asked.
 * The widget's own font stack is unchanged.
 */
export function fixedFont(): string {
  const file = createRequire(import.meta.url).resolve(
    '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
  )
  const data = readFileSync(file).toString('base64')
  return `<style>@font-face { font-family: "${FIXED_FAMILY}"; font-weight: 100 900; src: url(data:font/woff2;base64,${data}) format("woff2") }
[data-referral-widget] { --referral-font: "${FIXED_FAMILY}" }</style>`
}

/** Options every committed screenshot is taken with. */
export const STILL = { animations: 'disabled', caret: 'hide', scale: 'css' } as const

/** The share link the pictures show: a landing page and a code that are the same every run. */
export const FIXED_LANDING = 'https://shop.example/'
const FIXED_CODE = 'AcmeFriend1'

/**
 * Gives `referrerId` a link with a fixed code in the seeded campaign before any page asks: the
 * service answers the widget's POST /v1/links with it, as it does for a link made earlier.
 */
export function fixedLink(service: ServiceOrigin, referrerId: string) {
  service.service.store.insertLink(
    { org: 'org_acme', mode: 'test' },
    {
      id: 'link_screenshotsFixed01',
      code: FIXED_CODE,
      campaignId: 'camp_acmeFriendsAndFamily',
      referrerId,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
  )
  return `${FIXED_LANDING}?ref=${FIXED_CODE}`
}

/** Waits for the page's fonts, then takes `target` as the committed pictures are taken. */
export async function still(page: Page, target: Locator): Promise<Buffer> {
  await page.evaluate(async (family) => {
    await Promise.all(
      [400, 500, 600, 700].map((weight) => document.fonts.load(`${weight} 15px "${family}"`)),
    )
    await document.fonts.ready
  }, FIXED_FAMILY)
  return target.screenshot(STILL)
}

export interface Comparison {
  width: number
  height: number
  different: number
  allowed: number
}

/** Counts the pixels of `actual` that differ from `expected`; writes the difference to `diffPath`. */
export function comparePng(expected: Buffer, actual: Buffer, diffPath?: string): Comparison {
  const a = PNG.sync.read(expected)
  const b = PNG.sync.read(actual)
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(
      `The picture is ${b.width} × ${b.height} px; the committed one is ${a.width} × ${a.height} px.`,
    )
  }
  const diff = new PNG({ width: a.width, height: a.height })
  const different = pixelmatch(a.data, b.data, diff.data, a.width, a.height, {
    threshold: PIXEL_THRESHOLD,
  })
  if (different > 0 && diffPath) writeFileSync(diffPath, PNG.sync.write(diff))
  const allowed = Math.floor(a.width * a.height * MAX_DIFFERENT_SHARE)
  return { width: a.width, height: a.height, different, allowed }
}

/**
 * Writes `png` to the artifacts, then to docs/screenshots/<name>.png when updating; otherwise
 * fails when it differs from that file beyond the tolerance, saying how to update it.
 */
export function expectCommittedScreenshot(name: string, png: Buffer): void {
  writeFileSync(screenshotPath(name), png)
  const committed = join(COMMITTED_DIR, `${name}.png`)
  if (UPDATING) {
    mkdirSync(COMMITTED_DIR, { recursive: true })
    writeFileSync(committed, png)
    return
  }
  const update = `If the change is intended, run \`${UPDATE_COMMAND}\`, look at docs/screenshots/${name}.png and commit it.`
  if (!existsSync(committed)) {
    throw new Error(`There is no docs/screenshots/${name}.png to compare with. ${update}`)
  }
  const diffPath = screenshotPath(`${name}.diff`)
  rmSync(diffPath, { force: true })
  let result: Comparison
  try {
    result = comparePng(readFileSync(committed), png, diffPath)
  } catch (error) {
    throw new Error(`docs/screenshots/${name}.png: ${(error as Error).message} ${update}`)
  }
  const share = ((100 * result.different) / (result.width * result.height)).toFixed(2)
  expect(
    result.different,
    `docs/screenshots/${name}.png differs from what the panel renders now: ${result.different} pixels (${share} %) differ, ${result.allowed} may. New picture: test/e2e/artifacts/${name}.png, differences in red: test/e2e/artifacts/${name}.diff.png. ${update}`,
  ).toBeLessThanOrEqual(result.allowed)
}

/**
 * For a picture of live data (a clock, ports, random codes), which no two runs draw alike:
 * written to docs/screenshots/ when updating; otherwise only checked to be there, at the size
 * this run draws it, so the README does not point at a missing or outgrown picture.
 */
export function expectIllustration(name: string, png: Buffer): void {
  writeFileSync(screenshotPath(name), png)
  const committed = join(COMMITTED_DIR, `${name}.png`)
  if (UPDATING) {
    mkdirSync(COMMITTED_DIR, { recursive: true })
    writeFileSync(committed, png)
    return
  }
  const update = `Run \`${UPDATE_COMMAND}\`, look at docs/screenshots/${name}.png and commit it.`
  if (!existsSync(committed)) {
    throw new Error(`There is no docs/screenshots/${name}.png. ${update}`)
  }
  const before = PNG.sync.read(readFileSync(committed))
  const now = PNG.sync.read(png)
  expect(
    `${now.width} × ${now.height}`,
    `docs/screenshots/${name}.png is no longer the size of the page's picture. ${update}`,
  ).toBe(`${before.width} × ${before.height}`)
}
