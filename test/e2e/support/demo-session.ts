// The set-up the QA demo page's tests share: one Chromium and one demo server (started the way
// `npm start` starts it) per file; per test, the test data reset, a new context and the page
// opened afresh, and no uncaught page error at the end. `demo`, `context`, `page` and `log` are
// live bindings, always the running test's; the helpers act on that page.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import { launch, type PageLog, watchedPage } from './browser.ts'
import { demoPage, type StatName } from './demo-page.ts'
import { type DemoServer, startDemoServer } from './demo-server.ts'

export { count, text } from './demo-page.ts'

let browser: Browser
export let demo: DemoServer
export let context: BrowserContext
export let page: Page
export let log: PageLog
let d: ReturnType<typeof demoPage>

/** Registers the hooks in the calling file. */
export function useDemoSession(): void {
  beforeAll(async () => {
    ;[browser, demo] = await Promise.all([launch(), startDemoServer()])
  })
  afterAll(async () => {
    await browser?.close()
    await demo?.close()
  })
  beforeEach(async () => {
    await demo.api('POST', '/demo-api/reset')
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    context.setDefaultTimeout(15_000)
    ;({ page, log } = await watchedPage(context))
    d = demoPage(page)
    await page.goto(demo.url)
  })
  afterEach(async () => {
    expect(log.errors).toEqual([])
    await context?.close()
  })
}

export const scriptFrame = () => d.scriptFrame()
export const visitorFrame = () => d.visitorFrame()
export const preactWidget = () => d.preactWidget()
export const stat = (name: StatName) => d.stat(name)
export const requestRows = (path: string, status?: number) => d.requestRows(path, status)
/** Both referrer widgets show their panel. */
export const widgetsReady = () => d.widgetsReady()
/** The referrer's share link opened in the visitor frame: banner shown, click counted. */
export const openVisitor = (clicks?: string) => d.openVisitor(clicks)
