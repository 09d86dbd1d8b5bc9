// What keeps a page with the widget eligible for the back/forward cache, checked in every Chromium
// (the real restores, in three engines, are in test/engines/back-forward-cache.engine.ts): an idle
// page holds no Web Lock and waits for none; a send pass holds the lock only while it sends, one
// tab's pass at a time; a page hidden (`pagehide`) during a pass lets the lock go at once, so the
// site's next page never waits for it, and shown again (`pageshow` with `persisted`) it sends
// what waited.
import type { Page, Route } from 'playwright-core'
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, queueSize, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

/** The widget's sender lock, as the page's lock manager reports it: held and waiting. */
const senderLock = (page: Page) =>
  page.evaluate(async () => {
    const { held = [], pending = [] } = await navigator.locks.query()
    const ours = (lock: LockInfo) => lock.name?.startsWith('referral:') === true
    return { held: held.filter(ours).length, waiting: pending.filter(ours).length }
  })

const IDLE = { held: 0, waiting: 0 }

/** What the browser fires when the visitor leaves for another page of the site, and comes back. */
const fire = (page: Page, type: 'pagehide' | 'pageshow') =>
  page.evaluate((name) => {
    dispatchEvent(new PageTransitionEvent(name, { persisted: true }))
  }, type)

async function openPages(count: number) {
  const url = h.host.page('/', { html: widgetPage(h.service, { panel: false }) })
  const context = await h.newContext()
  const pages: Page[] = []
  for (let i = 0; i < count; i++) {
    const { page } = await h.open(context)
    await page.goto(url)
    await waitForApi(page)
    pages.push(page)
  }
  // Requests to the service's events wait until the test lets them through.
  const held: Route[] = []
  let holding = true
  await context.route('**/v1/events', (route) => {
    if (holding && route.request().method() === 'POST') held.push(route)
    else void route.continue()
  })
  const letThrough = async () => {
    holding = false
    for (const route of held.splice(0)) await route.continue()
  }
  return { pages, held, letThrough }
}

it('an idle page holds no lock; a send pass holds it while it sends, and lets it go after', async () => {
  const {
    pages: [page],
    held,
    letThrough,
  } = await openPages(1)
  if (!page) throw new Error('no page')
  expect(await senderLock(page)).toEqual(IDLE)

  await callReferral(page, 'track', 'signup', { userId: 'while-sending' })
  await expect.poll(() => held.length, FAST).toBe(1)
  expect(await senderLock(page)).toEqual({ held: 1, waiting: 0 })

  await letThrough()
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  await expect.poll(() => senderLock(page), FAST).toEqual(IDLE)
  expect(h.acceptedCounts().size).toBe(1)
})

it("two tabs' passes take turns; a tab hidden during its pass lets the lock go, and sends what waits when shown again", async () => {
  const {
    pages: [first, second],
    held,
    letThrough,
  } = await openPages(2)
  if (!first || !second) throw new Error('no pages')
  await callReferral(first, 'track', 'signup', { userId: 'first-tab' })
  await expect.poll(() => held.length, FAST).toBe(1)
  await callReferral(second, 'track', 'signup', { userId: 'second-tab' })
  // The second tab's pass waits for the first one's: never two senders.
  await expect.poll(() => senderLock(second), FAST).toEqual({ held: 1, waiting: 1 })
  expect(held).toHaveLength(1)

  // The first tab is left mid-pass (its request still out): the lock goes at once, and the
  // second tab's pass takes it.
  await fire(first, 'pagehide')
  await expect.poll(() => senderLock(second), FAST).toEqual({ held: 1, waiting: 0 })
  await letThrough()
  await expect.poll(() => senderLock(second), FAST).toEqual(IDLE)

  // Back to the first: what it tracks goes, and nothing was counted twice.
  await fire(first, 'pageshow')
  await callReferral(first, 'track', 'signup', { userId: 'after-return' })
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(3)
  expect([...h.acceptedCounts().values()]).toEqual([1, 1, 1])
  await expect.poll(() => senderLock(first), FAST).toEqual(IDLE)
})
