// Delivery under real browser conditions: a 429 with Retry-After, a failing network and a reload,
// going offline, two tabs of one site, and a page hidden with events still waiting. The service's
// own request log and stats are the judge: every event arrives, and is counted once.
import type { Page, Request } from 'playwright-core'
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import {
  callReferral,
  eventIdsOf,
  queueSize,
  READY_ROOT,
  storageEntries,
  waitForApi,
} from './support/in-page.ts'
import { flush } from './support/site-names.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

const isEventsPost = (request: Request) =>
  request.method() === 'POST' && new URL(request.url()).pathname === '/v1/events'

/** The widget's stored queue chunks (keys `referral:...:q:...`) as one string. */
async function storedQueue(page: Page): Promise<string> {
  const entries = await storageEntries(page)
  return Object.entries(entries)
    .filter(([key]) => /^referral:.*:q:/.test(key))
    .map(([, value]) => value)
    .join('\n')
}

it('pauses all sending for a 429’s Retry-After, then delivers once', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/', { html: widgetPage(h.service, { attributes: { locale: 'en-US' } }) })
  const context = await h.newContext()
  const { page } = await h.open(context)
  await page.goto(url)
  await page.locator(READY_ROOT).waitFor()
  await waitForApi(page)

  // The next answer to a test-mode request is a 429 with Retry-After: 2.
  h.service.service.faults.set({ kind: 'rate-limit', count: 1, retryAfterSeconds: 2 })
  await callReferral(page, 'track', 'click', { code })
  await expect.poll(() => h.eventRequests().map((r) => r.status), FAST).toEqual([429])

  // While paused, new events wait too and the status region says why.
  await callReferral(page, 'track', 'signup', { userId: 'bob' })
  await expect
    .poll(() => page.locator('[data-part="status"]').textContent(), FAST)
    .toBe('Busy right now. 2 referral actions will be sent shortly.')
  expect(await queueSize(page)).toBe(2)

  await expect
    .poll(() => h.eventRequests().map((r) => r.status), { interval: 50, timeout: 8000 })
    .toEqual([429, 200])
  const [limited, delivered] = h.eventRequests()
  if (!limited || !delivered) throw new Error('expected two requests')
  const gap = delivered.at - limited.at
  expect(gap, 'the pause lasts the Retry-After').toBeGreaterThanOrEqual(1980)
  expect(gap, 'sending resumes once it is over').toBeLessThan(4000)
  expect(delivered.results.map((r) => r.status)).toEqual(['accepted', 'accepted'])

  expect(await h.stats()).toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  await expect.poll(() => page.locator('[data-part="status"]').textContent(), FAST).toBe('')
  await flush(page)
  expect(h.eventRequests()).toHaveLength(2)
})

it('keeps events through a failing network and a reload, and counts nothing twice', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/landing', { html: widgetPage(h.service, { panel: false }) })
  const context = await h.newContext()
  const { page } = await h.open(context)
  const attempts: string[][] = []
  await page.route('**/v1/events', (route) => {
    attempts.push(eventIdsOf(route.request().postData()))
    return route.abort('internetdisconnected')
  })
  await page.goto(`${url}?ref=${code}`)
  await waitForApi(page)
  await callReferral(page, 'track', 'signup', { userId: 'carol' })
  await expect.poll(() => queueSize(page), FAST).toBe(2)
  await expect.poll(() => new Set(attempts.flat()).size, FAST).toBe(2)

  // Every event tried was in storage; none reached the service.
  const ids = [...new Set(attempts.flat())]
  const stored = await storedQueue(page)
  for (const id of ids) expect(stored).toContain(id)
  expect(h.eventRequests()).toEqual([])

  // The next test-mode answer fails too (the page-hide beacon, if one goes), then the network is
  // back: the reloaded page sends what storage kept.
  h.service.service.faults.set({ kind: 'unavailable', count: 1 })
  await page.unroute('**/v1/events')
  await page.reload()
  await waitForApi(page)
  await expect
    .poll(() => h.stats(), FAST)
    .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  expect(await storedQueue(page)).toBe('')

  // Another reload and a flush: nothing more is counted.
  await page.reload()
  await waitForApi(page)
  await flush(page)
  expect(await h.stats()).toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  const accepted = h.acceptedCounts()
  expect([...accepted.keys()].sort()).toEqual([...ids].sort())
  expect([...accepted.values()]).toEqual([1, 1])
})

it('waits while offline without trying, and sends as soon as it is back online', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/', { html: widgetPage(h.service, { attributes: { locale: 'en-US' } }) })
  const context = await h.newContext()
  const { page } = await h.open(context)
  const tried: string[] = []
  page.on('request', (request) => {
    if (isEventsPost(request)) tried.push(request.url())
  })
  await page.goto(url)
  await page.locator(READY_ROOT).waitFor()
  await waitForApi(page)

  await context.setOffline(true)
  await expect.poll(() => page.evaluate(() => navigator.onLine), FAST).toBe(false)
  await callReferral(page, 'track', 'click', { code })
  await callReferral(page, 'track', 'signup', { userId: 'dave' })
  await expect.poll(() => queueSize(page), FAST).toBe(2)
  await expect
    .poll(() => page.locator('[data-part="status"]').textContent(), FAST)
    .toBe('You are offline. 2 referral actions will be sent when you are back.')
  await flush(page) // settles at once: offline, nothing is tried
  expect(tried).toEqual([])
  expect(h.eventRequests()).toEqual([])

  const back = Date.now()
  await context.setOffline(false)
  await expect
    .poll(() => h.stats(), { interval: 50, timeout: 3000 })
    .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  const [first] = h.eventRequests()
  expect(first?.at ?? Number.POSITIVE_INFINITY, 'sent at once, no backoff').toBeLessThan(
    back + 1500,
  )
  // Playwright reports requests asynchronously: wait for the report, then the count must be 1.
  await expect.poll(() => tried.length, FAST).toBe(1)
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  await expect.poll(() => page.locator('[data-part="status"]').textContent(), FAST).toBe('')
})

// Each tab sends what it records, one pass at a time under the Web Lock (no two requests at once:
// test/engines/delivery.engine.ts times them at the service); which tab sends which is timing.
it('sends from two tabs: no event id goes out in two requests, each accepted once', async () => {
  const url = h.host.page('/', { html: widgetPage(h.service, { panel: false }) })
  const context = await h.newContext()
  const tabs = [await h.open(context), await h.open(context)]
  const sent: Array<{ tab: number; ids: string[] }> = []
  tabs.forEach(({ page }, tab) => {
    page.on('request', (request) => {
      if (isEventsPost(request)) sent.push({ tab, ids: eventIdsOf(request.postData()) })
    })
  })
  for (const { page } of tabs) {
    await page.goto(url)
    await waitForApi(page)
  }

  for (let round = 0; round < 3; round++) {
    for (const [tab, { page }] of tabs.entries()) {
      await callReferral(page, 'track', 'signup', { userId: `user-${tab}-${round}` })
    }
  }
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(6)
  for (const { page } of tabs) await expect.poll(() => queueSize(page), FAST).toBe(0)

  // Playwright reports requests asynchronously: wait until all six ids were seen going out.
  const seen = () => new Set(sent.flatMap((request) => request.ids)).size
  await expect.poll(seen, FAST).toBe(6)
  const ids = sent.flatMap((request) => request.ids)
  expect(ids, 'an event id in two requests').toHaveLength(6)
  expect([...h.acceptedCounts().values()]).toEqual([1, 1, 1, 1, 1, 1])

  // The sending tab goes: the other takes over and sends what it records.
  const senderTab = sent[0]?.tab ?? 0
  const other = tabs[1 - senderTab]
  if (!other) throw new Error('no second tab')
  await tabs[senderTab]?.page.close()
  await callReferral(other.page, 'track', 'signup', { userId: 'user-after-close' })
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(7)
  await expect.poll(() => queueSize(other.page), FAST).toBe(0)
  await expect.poll(seen, FAST).toBe(7)
  const all = sent.flatMap((request) => request.ids)
  expect(new Set(all).size).toBe(all.length)
  // The service's side of it: no id in two requests it answered either.
  const logged = h.eventRequests().flatMap((request) => request.results.map((r) => r.id))
  expect(logged).toHaveLength(7)
  expect(new Set(logged).size).toBe(7)
})

it('hands waiting events to the beacon when the page is left: counted exactly once', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/landing', { html: widgetPage(h.service, { panel: false }) })
  const elsewhere = h.host.page('/elsewhere', {
    html: '<!doctype html><title>Elsewhere</title><p>No widget here.</p>',
  })
  const context = await h.newContext()
  const { page } = await h.open(context)
  // The widget's fetches fail; a page-hide beacon (never a fetch) may go through.
  let failed = 0
  await page.route('**/v1/events', (route) => {
    if (route.request().resourceType() !== 'fetch') return route.continue()
    failed += 1
    return route.abort('connectionreset')
  })
  await page.goto(`${url}?ref=${code}`)
  await waitForApi(page)
  await callReferral(page, 'track', 'signup', { userId: 'erin' })
  await expect.poll(() => queueSize(page), FAST).toBe(2)
  await expect.poll(() => failed, FAST).toBeGreaterThan(0)
  expect(h.eventRequests()).toEqual([])

  await page.goto(elsewhere)
  await expect
    .poll(() => h.stats(), FAST)
    .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })

  // The next visit finds the events still stored (a beacon is never confirmed), sends them
  // again and the service answers duplicate: still counted once.
  await page.unroute('**/v1/events')
  await page.goto(url)
  await waitForApi(page)
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  expect(await h.stats()).toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  expect([...h.acceptedCounts().values()]).toEqual([1, 1])
})

it('closing a page with events waiting loses nothing: beacon now or next visit, once', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/landing', { html: widgetPage(h.service, { panel: false }) })
  const context = await h.newContext()
  const first = await h.open(context)
  let failed = 0
  await first.page.route('**/v1/events', (route) => {
    failed += 1
    return route.abort('timedout')
  })
  await first.page.goto(`${url}?ref=${code}`)
  await waitForApi(first.page)
  await callReferral(first.page, 'track', 'signup', { userId: 'frank' })
  await expect.poll(() => queueSize(first.page), FAST).toBe(2)
  await expect.poll(() => failed, FAST).toBeGreaterThan(0)
  await first.page.close()

  const next = await h.open(context)
  await next.page.goto(url)
  await waitForApi(next.page)
  await expect
    .poll(() => h.stats(), FAST)
    .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  await expect.poll(() => queueSize(next.page), FAST).toBe(0)
  await flush(next.page)
  expect(await h.stats()).toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  expect([...h.acceptedCounts().values()]).toEqual([1, 1])
})
