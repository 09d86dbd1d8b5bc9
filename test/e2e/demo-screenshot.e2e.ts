// The QA demo page as the README shows it (docs/screenshots/demo.png): both referrer widgets
// ready, a referred visitor arrived through the share link and signed up, the live views
// counting it. It shows live data (the service clock, ports, codes), so it is not compared
// pixel by pixel; `npm run screenshots` takes it again.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launch, watchedPage } from './support/browser.ts'
import { type DemoServer, startDemoServer } from './support/demo-server.ts'
import { expectIllustration, STILL } from './support/screenshots.ts'

const WAIT = { timeout: 15_000 }

let browser: Browser
let demo: DemoServer

beforeAll(async () => {
  ;[browser, demo] = await Promise.all([launch(), startDemoServer()])
})
afterAll(async () => {
  await browser?.close()
  await demo?.close()
})

it('demo: the QA page with a referred visitor signed up', async () => {
  await demo.api('POST', '/demo-api/reset')
  const context = await browser.newContext({
    viewport: { width: 1280, height: 1160 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce',
    locale: 'en-US',
  })
  try {
    context.setDefaultTimeout(15_000)
    const { page, log } = await watchedPage(context)
    await page.goto(demo.url)
    const scriptFrame = page.frameLocator('iframe[title="Script-tag widget"]')
    await scriptFrame.locator('[data-part="root"][data-state="ready"]').waitFor()
    await page.locator('.preact-widget [data-part="root"][data-state="ready"]').waitFor()
    await expect
      .poll(() => page.getByLabel('Current share link').inputValue(), WAIT)
      .toContain('ref=')
    await page.getByRole('button', { name: 'Open as a new visitor (frame)' }).click()
    await page
      .frameLocator('iframe[title="Visitor page"]')
      .locator('[data-part="banner"]')
      .waitFor()
    await page.getByRole('button', { name: 'Sign the visitor up' }).click()
    await expect.poll(() => page.getByTestId('stat-conversions').textContent(), WAIT).toBe('1')
    await expect
      .poll(() => page.getByTestId('facts-script').textContent(), WAIT)
      .toMatch(/Panel: ready/)
    // Nothing hovered or scrolled: the button just clicked would show its hover colour.
    await page.mouse.move(0, 0)
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    expectIllustration('demo', await page.screenshot(STILL))
    expect(log.errors).toEqual([])
  } finally {
    await context.close()
  }
})
