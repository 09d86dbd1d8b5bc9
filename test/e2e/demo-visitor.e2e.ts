// The QA demo page's visitor simulation, driven as a tester would: the share link opened as a new
// visitor (in the frame or a tab), signed up from the demo page's one field, cleared and opened
// again, and what the page asks for before there is any visitor.
import { expect, it } from 'vitest'
import {
  context,
  count,
  demo,
  openVisitor,
  page,
  stat,
  text,
  useDemoSession,
  visitorFrame,
  widgetsReady,
} from './support/demo-session.ts'

useDemoSession()

it('visitor simulation: the share link brings a click, a signup is a conversion, clear starts over', async () => {
  await text(stat('clicks')).toBe('0')
  await openVisitor()
  await text(visitorFrame().locator('[data-part="banner"]')).toContain('$10')
  await text(page.getByTestId('visitor-facts')).toMatch(/Banner: shown/)
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  await text(stat('conversions')).toBe('1')
  await text(stat('rewards')).toBe('2')
  await count(
    page.locator('[data-testid="event-row"][data-source="visitor"][data-name="event:sent"]'),
  ).toBe(2)

  await page.getByRole('button', { name: 'Clear the visitor' }).click()
  await text(visitorFrame().getByTestId('visitor-empty')).toMatch(
    /^No visitor: \d+ referral: keys? erased/,
  )
  // A new visitor through the same link is a new click.
  await openVisitor('2')
})

// --- what a tester trips over ---------------------------------------------------------------

/** The fields a visitor page shows, but the banner's promotion code. */
const SIGN_UP_FIELDS = 'input:visible:not([data-part="promotion-code"])'

it('signs the visitor up from one field, the demo page’s, whether in the frame or a tab', async () => {
  await openVisitor()
  expect(await page.getByLabel('Visitor signs up as').isVisible()).toBe(true)
  // The visitor page driven by the demo page has no sign-up field of its own (the banner's
  // promotion code is the widget's, not a field).
  expect(await visitorFrame().locator(SIGN_UP_FIELDS).count()).toBe(0)

  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Open as a new visitor (new tab)' }).click(),
  ])
  await tab.locator('[data-part="banner"]').waitFor()
  expect(await tab.locator(SIGN_UP_FIELDS).count()).toBe(0)
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  await text(stat('conversions')).toBe('1')
  await tab.close()

  // Opened by hand, with no demo page around, the visitor page offers its own.
  const alone = await context.newPage()
  await alone.goto(`${demo.visitorUrl}/demo/visitor.html?key=pk_test_acme`)
  await alone.getByLabel('New account').waitFor()
  await alone.close()
})

it('asks a signed-in tester to open the share link, not to sign in, before any visitor', async () => {
  await widgetsReady()
  await text(page.getByTestId('visitor-placeholder')).toMatch(
    /^No visitor yet: open the share link/,
  )
  await page.getByRole('button', { name: 'Sign out' }).click()
  await text(page.getByTestId('visitor-placeholder')).toMatch(/^No visitor yet: sign a user in/)
})

it('works where the browser blocks the visitor frame’s storage, as it may for a frame of another site', async () => {
  // Such a browser throws on the first touch of localStorage in that frame.
  await context.addInitScript((origin) => {
    if (location.origin !== origin || window === window.top) return
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('Access is denied for this document.', 'SecurityError')
      },
    })
  }, new URL(demo.visitorUrl).origin)
  await page.reload()
  await openVisitor()
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  await text(stat('conversions')).toBe('1')
  await page.getByRole('button', { name: 'Clear the visitor' }).click()
  await text(visitorFrame().getByTestId('visitor-empty')).toMatch(
    /^No visitor: this frame has no storage/,
  )
})
