// What keeps a page with the widget eligible for the back/forward cache, checked in every Chromium
// (the npm package's headless shell has no cache to restore from; back-forward-cache.e2e.ts shows
// the real restore in a full Chromium): once a page is hidden (`pagehide`) it holds no Web Lock
// and waits for none, so the site's next page never contends with it; shown again (`pageshow`
// with `persisted`) it takes the sender's role back and sends what waits.
import type { Page } from 'playwright-core'
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
  return pages
}

it('a hidden page holds no lock; shown again, it holds it and sends what waited', async () => {
  const [page] = await openPages(1)
  if (!page) throw new Error('no page')
  await expect.poll(() => senderLock(page), FAST).toEqual({ held: 1, waiting: 0 })

  await fire(page, 'pagehide')
  await expect.poll(() => senderLock(page), FAST).toEqual({ held: 0, waiting: 0 })

  await fire(page, 'pageshow')
  await expect.poll(() => senderLock(page), FAST).toEqual({ held: 1, waiting: 0 })
  await callReferral(page, 'track', 'signup', { userId: 'after-return' })
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(1)
  await expect.poll(() => queueSize(page), FAST).toBe(0)
})

it('a hidden page that was waiting for the lock waits no more; the next page of the site gets it at once', async () => {
  const [sender, waiting] = await openPages(2)
  if (!sender || !waiting) throw new Error('no pages')
  await expect.poll(() => senderLock(waiting), FAST).toEqual({ held: 1, waiting: 1 })

  await fire(waiting, 'pagehide')
  await expect.poll(() => senderLock(waiting), FAST).toEqual({ held: 1, waiting: 0 })
  // The sender is left too: nothing of the widget's is held or waited for any more.
  await fire(sender, 'pagehide')
  await expect.poll(() => senderLock(sender), FAST).toEqual({ held: 0, waiting: 0 })

  // Back to the one that waited: it takes the role, and what it tracks goes.
  await fire(waiting, 'pageshow')
  await expect.poll(() => senderLock(waiting), FAST).toEqual({ held: 1, waiting: 0 })
  await callReferral(waiting, 'track', 'signup', { userId: 'second-tab' })
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(1)
})
