// The QA demo page's delivery controls, driven as a tester would: faults armed for the service's
// next answers (429 with Retry-After, 503), counted down in one place, and the widgets taken
// offline (simulated) and back.
import { expect, it } from 'vitest'
import {
  count,
  demo,
  openVisitor,
  page,
  requestRows,
  stat,
  text,
  useDemoSession,
  visitorFrame,
} from './support/demo-session.ts'

useDemoSession()

it('fault injection: two 429s with Retry-After pause the queue, and the requests view shows them', async () => {
  await openVisitor()
  await page.getByLabel('429 Too Many Requests').check()
  await page.getByLabel('Next N answers').fill('2')
  await page.getByLabel('Retry-After (s)').fill('2')
  await page.getByRole('button', { name: 'Arm fault' }).click()
  await text(page.getByTestId('fault-current')).toBe(
    'next 2 test-mode answers: 429, Retry-After 2 s',
  )

  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  const delivery = page.getByTestId('delivery-visitor')
  await expect
    .poll(() => delivery.getAttribute('data-state'), { timeout: 15_000 })
    .toBe('rate-limited')
  expect(await delivery.textContent()).toMatch(/^Rate-limited until \d\d:\d\d:\d\d/)
  await page
    .locator('[data-testid="event-row"][data-source="visitor"][data-name="ratelimited"]')
    .first()
    .waitFor()
  await count(requestRows('/v1/events', 429)).toBe(2)
  // After the second pause the signup goes through, counted once.
  await text(stat('conversions')).toBe('1')
  await expect.poll(() => delivery.getAttribute('data-state')).toBe('idle')
  await text(page.getByTestId('fault-current')).toBe('none')
  await count(requestRows('/v1/events', 200)).toBe(2) // the click, then the signup

  // An armed fault can be taken back before it is used.
  await page.getByLabel('503 Service Unavailable').check()
  await page.getByRole('button', { name: 'Arm fault' }).click()
  await text(page.getByTestId('fault-badge')).toBe('next 2 test-mode answers: 503')
  await page.getByRole('button', { name: 'Clear fault' }).click()
  await text(page.getByTestId('fault-badge')).toBe('none')
  expect(await demo.api('GET', '/demo-api/faults')).toEqual({ fault: null })
})

it('simulated offline holds the visitor’s signup until the widgets are back online', async () => {
  await openVisitor()
  await page.getByLabel('Widgets offline (simulated)').check()
  await text(visitorFrame().getByTestId('frame-meta')).toMatch(/offline \(simulated\)$/)
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  const pane = page.getByTestId('queue-visitor')
  await count(pane.getByTestId('queued-event')).toBe(1)
  await expect
    .poll(() => page.getByTestId('delivery-visitor').getAttribute('data-state'))
    .toBe('offline')
  await count(requestRows('/v1/events')).toBe(1) // the click only
  await page.getByLabel('Widgets offline (simulated)').uncheck()
  await text(stat('conversions')).toBe('1')
  await count(pane.getByTestId('queued-event')).toBe(0)
})

// --- what a tester trips over ---------------------------------------------------------------

it('counts an armed fault down in one place: no stale count beside the live one', async () => {
  await openVisitor()
  await page.getByLabel('429 Too Many Requests').check()
  await page.getByLabel('Next N answers').fill('3')
  // Long enough that the widget does not try again during the test.
  await page.getByLabel('Retry-After (s)').fill('600')
  await page.getByRole('button', { name: 'Arm fault' }).click()
  await text(page.getByTestId('fault-badge')).toBe(
    'next 3 test-mode answers: 429, Retry-After 600 s',
  )
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  await count(requestRows('/v1/events', 429)).toBe(1)
  await text(page.getByTestId('fault-badge')).toMatch(/^next 2 /)
  const faults = page.locator('details', { has: page.locator('#faults-title') })
  const counts = [...((await faults.textContent()) ?? '').matchAll(/next (\d+)/g)].map(([, n]) => n)
  expect(counts.length).toBeGreaterThan(0)
  expect(
    counts.every((n) => n === '2'),
    `the fault panel says ${counts.join(', ')}`,
  ).toBe(true)
})
