// The smallest real-browser check: the built script tag on a page of another origin shows the
// panel with the seeded campaign's rewards.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launch, watchedPage } from './support/browser.ts'
import { startHostOrigin, startServiceOrigin } from './support/servers.ts'

let browser: Browser
let service: Awaited<ReturnType<typeof startServiceOrigin>>
let host: Awaited<ReturnType<typeof startHostOrigin>>

beforeAll(async () => {
  browser = await launch()
  service = await startServiceOrigin()
  host = await startHostOrigin()
})
afterAll(async () => {
  await browser?.close()
  await service?.close()
  await host?.close()
})

it('shows the rewards from the service on another origin', async () => {
  const url = host.page('/', {
    html: `<!doctype html><title>Shop</title><div data-referral-widget></div>
<script async src="${service.url}/referral-widget.js" data-key="pk_test_acme"></script>`,
  })
  const context = await browser.newContext()
  const { page, log } = await watchedPage(context)
  await page.goto(url)
  await page.locator('[data-part="root"][data-state="ready"]').waitFor()
  expect(await page.locator('[data-part="headline"]').textContent()).toBe('Give $10, get $10')
  expect(log.errors).toEqual([])
  await context.close()
})

it('on a page that only tracks, asks for no campaign: its only call is the events it sends', async () => {
  const url = host.page('/tracking-only', {
    html: `<!doctype html><title>Shop</title>
<script async src="${service.url}/referral-widget.js" data-key="pk_test_acme" data-user-id="alice"></script>`,
  })
  const before = service.requests.length
  const context = await browser.newContext()
  const { page, log } = await watchedPage(context)
  await page.goto(url)
  await page.waitForFunction(
    () => typeof (window as { Referral?: unknown }).Referral === 'function',
  )
  await page.evaluate(() => {
    const referral = (window as unknown as { Referral: (...args: unknown[]) => unknown }).Referral
    referral('track', 'signup', { userId: 'bob' })
  })
  const paths = () =>
    service.requests.slice(before).map((request) => `${request.method} ${request.path}`)
  await expect.poll(paths).toContain('POST /v1/events')
  // The loader, then (for the signup) the tracking part with delivery, then the events.
  expect(paths().filter((path) => !path.startsWith('OPTIONS'))).toEqual([
    'GET /referral-widget.js',
    'GET /referral-widget-tracking-delivery.js',
    'POST /v1/events',
  ])
  expect(log.errors).toEqual([])
  await context.close()
})
