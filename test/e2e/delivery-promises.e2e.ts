// Delivery's promises where only a real browser shows them: Chromium refuses a keepalive body over
// 64 KiB before it reaches the network, and several tabs share one queue and one sender. The
// service's request log is the judge.
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { shortHash } from '../../src/core/short-hash.ts'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, queueSize, storageEntries, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

const signups = (page: Page, users: string[]) =>
  page.evaluate((ids) => {
    const referral = (window as unknown as { Referral: (...args: unknown[]) => unknown }).Referral
    for (const userId of ids) referral('track', 'signup', { userId })
  }, users)

it('a poisoned store (one event of 70,000 digits, 100 of 700) holds nothing back: the genuine signups arrive', async () => {
  const url = h.host.page('/poisoned', { html: widgetPage(h.service, { panel: false }) })
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  const namespace = `referral:test:${shortHash('pk_test_acme')}:`
  // What a bug, an old version or another script could have left in storage, there before the
  // widget starts.
  await page.addInitScript((ns) => {
    const at = (digits: number) => `2026-01-15T11:59:00.${'1'.repeat(digits)}Z`
    const event = (id: string, occurredAt: string) => ({
      id,
      type: 'signup',
      visitorId: 'v_storedVisitor00001',
      userId: 'stored-user',
      occurredAt,
      queuedAt: Date.now() - 60_000,
      attempts: 0,
    })
    localStorage.setItem(
      `${ns}q:0-poison-1`,
      JSON.stringify({ v: 1, events: [event('e_poisonedEvent00001', at(70_000))] }),
    )
    localStorage.setItem(
      `${ns}q:0-poison-2`,
      JSON.stringify({
        v: 1,
        events: Array.from({ length: 100 }, (_, i) =>
          event(`e_longTimestamp${String(i).padStart(5, '0')}`, at(700)),
        ),
      }),
    )
  }, namespace)
  await page.goto(url)
  await waitForApi(page)
  const users = ['genuine0', 'genuine1', 'genuine2', 'genuine3', 'genuine4']
  await signups(page, users)

  // Before, every request was refused by the browser (net::ERR_ABORTED): 0 of 5 arrived.
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(5)
  expect([...h.acceptedCounts().values()]).toEqual([1, 1, 1, 1, 1])
  expect(h.eventRequests().every((request) => request.status === 200)).toBe(true)
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  const left = Object.keys(await storageEntries(page)).filter((key) => key.includes(':q:'))
  expect(left).toEqual([])
  expect(log.console.some((line) => line.includes("outside the contract's bounds"))).toBe(true)
})

it('three tabs tracking through a 503 outage cost the backoff schedule, not a request per call; all arrive once', async () => {
  const url = h.host.page('/tabs', { html: widgetPage(h.service, { panel: false }) })
  const context = await h.newContext()
  let refused = 0
  let outage = true
  // A fault-injecting stand-in between the pages and the service.
  await context.route('**/v1/events', (route) => {
    if (!outage) return route.continue()
    refused += 1
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      headers: { 'Access-Control-Allow-Origin': '*' },
      body: JSON.stringify({
        error: { type: 'api_error', code: 'internal_error', message: 'down' },
      }),
    })
  })
  const pages: Page[] = []
  for (let i = 0; i < 3; i++) {
    const { page } = await h.open(context)
    await page.goto(url)
    await waitForApi(page)
    pages.push(page)
  }

  // Every tab tracks a signup every 250 ms for 8 s: 96 calls in all.
  await Promise.all(
    pages.map((page, tab) =>
      page.evaluate(
        ([tabIndex]) =>
          new Promise<void>((resolve) => {
            const referral = (window as unknown as { Referral: (...args: unknown[]) => unknown })
              .Referral
            let n = 0
            const timer = setInterval(() => {
              referral('track', 'signup', { userId: `tab${tabIndex}-${n}` })
              n += 1
              if (n === 32) {
                clearInterval(timer)
                resolve()
              }
            }, 250)
          }),
        [tab],
      ),
    ),
  )
  // Before: a request per call or close to it. Now the backoff schedule of one sender bounds it.
  expect(refused).toBeGreaterThan(0)
  expect(refused).toBeLessThanOrEqual(8)

  outage = false
  for (const page of pages)
    void page.evaluate(() =>
      (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
    )
  await expect.poll(() => h.acceptedCounts().size, { interval: 100, timeout: 20_000 }).toBe(96)
  expect(new Set(h.acceptedCounts().values())).toEqual(new Set([1]))
  for (const page of pages) await expect.poll(() => queueSize(page), FAST).toBe(0)
  expect(await callReferral(pages[0] as Page, 'queueSize')).toBe(0)
})
