// The QA demo page as its tests drive it: its frames, widgets and live views, and the waits they
// share (on conditions, never on time).
import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'

const WAIT = { timeout: 15_000 }

/** Polls a locator's text until it meets the expectation that follows. */
export const text = (locator: Locator) => expect.poll(() => locator.textContent(), WAIT)
/** Polls how many elements a locator finds. */
export const count = (locator: Locator) => expect.poll(() => locator.count(), WAIT)

export type StatName = 'clicks' | 'conversions' | 'rewards' | 'status' | 'trigger'

export function demoPage(page: Page) {
  const scriptFrame = () => page.frameLocator('iframe[title="Script-tag widget"]')
  const visitorFrame = () => page.frameLocator('iframe[title="Visitor page"]')
  const preactWidget = () => page.locator('.preact-widget')
  const stat = (name: StatName) => page.getByTestId(`stat-${name}`)
  const requestRows = (path: string, status?: number) =>
    page.locator(
      `[data-testid="request-row"][data-path="${path}"]${status ? `[data-status="${status}"]` : ''}`,
    )
  return {
    scriptFrame,
    visitorFrame,
    preactWidget,
    stat,
    requestRows,
    /** Both referrer widgets show their panel. */
    async widgetsReady() {
      await scriptFrame().locator('[data-part="root"][data-state="ready"]').waitFor()
      await preactWidget().locator('[data-part="root"][data-state="ready"]').waitFor()
    },
    /** The referrer's share link opened in the visitor frame: banner shown, click counted. */
    async openVisitor(clicks = '1') {
      const shareLink = page.getByLabel('Current share link')
      await expect.poll(() => shareLink.inputValue(), WAIT).toContain('ref=')
      await page.getByRole('button', { name: 'Open as a new visitor (frame)' }).click()
      await visitorFrame().locator('[data-part="banner"]').waitFor()
      await text(stat('clicks')).toBe(clicks)
    },
  }
}
