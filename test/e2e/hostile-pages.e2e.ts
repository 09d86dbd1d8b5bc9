// The widget as a guest in a hostile page (WIDGET.md section 9) and behind a path that answers
// oddly: a polluted Object.prototype, Prototype.js's Array.prototype.toJSON, a window.Referral of
// the page's own, an answer that leaves the events out, and the service refusing the key for a
// while. The service's request log and stats are the judge: every event accepted exactly once.
import type { BrowserContext, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { flush, heard, recorder, signups, storedChunks, warnings } from './support/hostile.ts'
import { queueSize, READY_ROOT, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

const allOnce = (counts: Map<string, number>) => [...counts.values()].every((n) => n === 1)

it('a polluted Object.prototype: the click and the signups accepted once, the panel ready, nothing thrown', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/', {
    html: widgetPage(h.service, {
      // What a query-string prototype-pollution bug leaves behind, before the widget's script;
      // the page queues its calls through the stub meanwhile.
      before: `<script>Object.prototype.polluted = 'yes'</script>${recorder()}
<script>for (const userId of ['ann', 'ben', 'cid']) Referral('track', 'signup', { userId })</script>`,
      // A friend of alice's, in their own browser, whose panel shows their own link.
      attributes: { 'user-id': 'dave' },
    }),
  })
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(`${url}?ref=${code}`)

  await expect
    .poll(() => h.acceptedCounts().size, { ...FAST, message: 'events accepted by the service' })
    .toBe(4)
  expect(log.errors, 'uncaught errors in the page').toEqual([])
  expect(allOnce(h.acceptedCounts())).toBe(true)
  expect(await h.stats()).toMatchObject({ totalClicks: 1, totalConversions: 3 })
  await page.locator(READY_ROOT).waitFor({ timeout: 5000 })
  expect((await heard(page)).dropped).toEqual([])
})

/** Prototype.js 1.6: every array serializes as a JSON string of itself. */
function prototypeJs() {
  ;(Array.prototype as unknown as { toJSON(this: unknown[]): string }).toJSON = function () {
    return `[${this.map((item) => JSON.stringify(item)).join(',')}]`
  }
}

/** Stored text with what differs between any two pages (ids, times) blanked out. */
const shapeOf = (text: string) =>
  text
    .replace(/"(id|visitorId)":"[^"]*"/g, '"$1":"…"')
    .replace(/"(occurredAt)":"[^"]*"/g, '"$1":"…"')
    .replace(/"(queuedAt|serviceAt)":\d+/g, '"$1":0')

/**
 * A page with the widget, loaded, then offline, having tracked `users`' signups. It shows the
 * panel: its tracking part runs before the page goes offline, so the queue stores them.
 */
async function offlineWithSignups(context: BrowserContext, users: string[]): Promise<Page> {
  const url = h.host.page('/account', { html: widgetPage(h.service, { before: recorder() }) })
  const { page } = await h.open(context)
  await page.goto(url)
  await page.locator(READY_ROOT).waitFor()
  await context.setOffline(true)
  await expect.poll(() => page.evaluate(() => navigator.onLine), FAST).toBe(false)
  await signups(page, users)
  await expect.poll(async () => (await heard(page)).queued.length, FAST).toBe(users.length)
  return page
}

it('Array.prototype.toJSON set before load: stored as a clean page stores, every event accepted once', async () => {
  const users = ['json0', 'json1', 'json2']
  const clean = await offlineWithSignups(await h.newContext(), users)
  const cleanText = (await storedChunks(clean)).map(shapeOf)
  expect(cleanText).toHaveLength(1)

  const context = await h.newContext()
  await context.addInitScript(prototypeJs)
  const page = await offlineWithSignups(context, users)
  expect(await page.evaluate(() => JSON.stringify([1]))).toBe('"[1]"') // the page's arrays do
  expect((await storedChunks(page)).map(shapeOf), 'the stored queue').toEqual(cleanText)

  const queued = (await heard(page)).queued
  await context.setOffline(false)
  await expect
    .poll(() => h.acceptedCounts().size, { ...FAST, message: 'events accepted by the service' })
    .toBe(3)
  expect(allOnce(h.acceptedCounts())).toBe(true)
  for (const id of queued) expect(h.acceptedCounts().get(id)).toBe(1)
  expect((await heard(page)).dropped).toEqual([])
})

it('Array.prototype.toJSON set after the events were stored: the request is valid, each accepted once', async () => {
  const context = await h.newContext()
  const page = await offlineWithSignups(context, ['later0', 'later1', 'later2'])
  await page.evaluate(prototypeJs)
  await context.setOffline(false)

  await expect.poll(() => h.eventRequests().length, FAST).toBeGreaterThan(0)
  expect(h.eventRequests()[0]?.status, 'the answer to the first request').toBe(200)
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(3)
  expect(allOnce(h.acceptedCounts())).toBe(true)
  expect((await heard(page)).dropped).toEqual([])
  await expect.poll(() => queueSize(page), FAST).toBe(0)
})

it("a window.Referral of the page's own stays, with one warning; data-global's name takes the stub's calls", async () => {
  const own = `<script>window.Referral = { site: 'own', open: function () { return 'the site’s dialog' } }</script>`
  const url = h.host.page('/', { html: widgetPage(h.service, { before: own }) })
  const context = await h.newContext()
  const first = await h.open(context)
  await first.page.goto(url)
  await first.page.locator(READY_ROOT).waitFor()
  expect(
    await first.page.evaluate(() => {
      const referral = (window as unknown as { Referral: { site?: string; open?: () => string } })
        .Referral
      return { site: referral.site, open: referral.open?.() }
    }),
    "the page's window.Referral",
  ).toEqual({ site: 'own', open: 'the site’s dialog' })
  await expect.poll(() => warnings(first.log.console), FAST).toHaveLength(1)
  expect(warnings(first.log.console)[0]).toContain('data-global')

  // With data-global and the stub under that name, calls made before load are delivered.
  const named = h.host.page('/named', {
    html: widgetPage(h.service, {
      attributes: { global: 'ReferralWidget' },
      before: `${own}${recorder('ReferralWidget')}
<script>ReferralWidget('track', 'signup', { userId: 'early' })</script>`,
    }),
  })
  const second = await h.open(context)
  await second.page.goto(named)
  await second.page.locator(READY_ROOT).waitFor()
  await expect
    .poll(() => h.acceptedCounts().size, { ...FAST, message: 'events accepted by the service' })
    .toBe(1)
  expect(await second.page.evaluate(() => typeof (window as { Referral?: unknown }).Referral)).toBe(
    'object',
  )
  expect(warnings(second.log.console)).toEqual([])
})

it('an answer that names none of the events: they go again by themselves, with the backoff, and are accepted once', async () => {
  const url = h.host.page('/', {
    html: widgetPage(h.service, { panel: false, before: recorder() }),
  })
  const context = await h.newContext()
  const { page } = await h.open(context)
  // Something between page and service answers the first two requests with no results.
  let emptyAnswers = 2
  let tried = 0
  await page.route('**/v1/events', (route) => {
    if (route.request().method() !== 'POST') return route.continue()
    tried += 1
    if (emptyAnswers <= 0) return route.continue()
    emptyAnswers -= 1
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      headers: { 'Access-Control-Allow-Origin': '*' },
      body: JSON.stringify({ results: [] }),
    })
  })
  await page.goto(url)
  await waitForApi(page)
  await signups(page, ['quiet0', 'quiet1', 'quiet2'])

  await expect
    .poll(() => h.acceptedCounts().size, {
      interval: 100,
      timeout: 12_000,
      message: 'events accepted without another call by the page',
    })
    .toBe(3)
  expect(emptyAnswers).toBe(0)
  expect(tried, 'requests, the two empty answers included').toBeGreaterThanOrEqual(3)
  expect(allOnce(h.acceptedCounts())).toBe(true)
  expect(new Set(h.acceptedCounts().keys())).toEqual(new Set((await heard(page)).queued))
  expect((await heard(page)).dropped).toEqual([])
  await expect.poll(() => queueSize(page), FAST).toBe(0)
})

it("the service's own 401 for a while: 11 signups kept, one warning; once it is over, each accepted once", async () => {
  const url = h.host.page('/', {
    html: widgetPage(h.service, { panel: false, before: recorder() }),
  })
  const context = await h.newContext()
  let refusing = true
  let refusals = 0
  await context.route('**/v1/events', (route) => {
    if (!refusing || route.request().method() !== 'POST') return route.continue()
    refusals += 1
    return route.fulfill({
      status: 401,
      contentType: 'application/json',
      headers: { 'Access-Control-Allow-Origin': '*' },
      body: JSON.stringify({
        error: {
          type: 'authentication_error',
          code: 'invalid_api_key',
          message: 'The API key is not valid.',
        },
      }),
    })
  })
  const { page, log } = await h.open(context)
  await page.goto(url)
  await waitForApi(page)

  // Signups tracked all through the refusal, each explicit flush refused too.
  await signups(page, ['k0', 'k1', 'k2', 'k3', 'k4'])
  await flush(page)
  await signups(page, ['k5', 'k6', 'k7'])
  await flush(page)
  await signups(page, ['k8', 'k9', 'k10'])
  await flush(page)
  expect(refusals).toBeGreaterThanOrEqual(3)

  const { queued, dropped } = await heard(page)
  expect(queued).toHaveLength(11)
  expect(dropped.length, 'events dropped as final').toBe(0)
  expect(await queueSize(page)).toBe(11)
  const stored = (await storedChunks(page)).join('\n')
  for (const id of queued) expect(stored).toContain(id)
  const warned = warnings(log.console)
  expect(warned).toHaveLength(1)
  expect(warned[0]).toContain('401 invalid_api_key')
  expect(h.eventRequests()).toEqual([])

  refusing = false
  await flush(page)
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(11)
  expect(allOnce(h.acceptedCounts())).toBe(true)
  expect(new Set(h.acceptedCounts().keys())).toEqual(new Set(queued))
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  expect(warnings(log.console)).toHaveLength(1)
})
