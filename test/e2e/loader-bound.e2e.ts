// The loader's bound: offline, before the tracking part has run, a page keeps at most 1,000 calls
// in storage (the queue's own bound, well within the widget's storage budget). Each call past it
// is dropped at once and said at once, as the queue says its own overflow: `event:dropped` with
// reason `overflow` to the page's listeners, attached through the stub before the widget loaded,
// and one console warning. Nothing vanishes unannounced, however long the page stays offline.
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { queueSize, storageEntries } from './support/in-page.ts'
import { STUB, widgetPage } from './support/widget-page.ts'

const h = useHarness()

type Dropped = { event: { id: string; type: string; userId?: string }; reason: string }

/** A page whose listener (through the stub, before the widget) writes down every drop it hears. */
const listeningPage = () =>
  h.host.page('/app', {
    html: widgetPage(h.service, {
      panel: false,
      before: `<script>${STUB};window.__dropped=[];Referral('on','event:dropped',function(e){window.__dropped.push(e)})</script>`,
    }),
  })

/** `count` sign-ups in one task of the page, numbered from `from`. */
const signups = (page: import('playwright-core').Page, from: number, count: number) =>
  page.evaluate(
    ([from, count]: [number, number]) => {
      const referral = (window as unknown as { Referral: (...args: unknown[]) => unknown }).Referral
      for (let n = from; n < from + count; n++) referral('track', 'signup', { userId: `user-${n}` })
    },
    [from, count] as [number, number],
  )

/** What the listener heard, summed up in the page (29,000 payloads stay there). */
const heardSummary = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const dropped = (window as unknown as { __dropped: Dropped[] }).__dropped
    return {
      reasons: [...new Set(dropped.map((drop) => drop.reason))],
      ids: new Set(dropped.map((drop) => drop.event.id)).size,
      first: dropped[0]?.event,
      last: dropped.at(-1)?.event,
    }
  })
const heardCount = (page: import('playwright-core').Page) =>
  page.evaluate(() => (window as unknown as { __dropped: Dropped[] }).__dropped.length)

/** Characters the widget keeps in the page's storage (keys and values). */
const storedChars = async (page: import('playwright-core').Page) =>
  Object.entries(await storageEntries(page)).reduce((sum, [k, v]) => sum + k.length + v.length, 0)

const referralLines = (lines: string[]) => lines.filter((line) => line.includes('[referral]'))
const WARNING =
  'warning: [referral] 1000 calls wait for the widget to load: more are dropped (event:dropped).'

it('offline to the end, 30,000 sign-ups in 30 tasks: 1,000 kept within the bound, the other 29,000 announced as dropped when made, one warning', async () => {
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(listeningPage())
  await page.waitForLoadState('networkidle')
  await context.setOffline(true)
  await expect.poll(() => page.evaluate(() => navigator.onLine), FAST).toBe(false)

  for (let task = 0; task < 30; task++) {
    await signups(page, task * 1000, 1000)
    // Said within the task that made them: the first task fills the bound, each later one is heard.
    expect(await heardCount(page)).toBe(task * 1000)
  }
  const dropped = await heardSummary(page)
  expect(dropped.reasons).toEqual(['overflow'])
  expect(dropped.ids).toBe(29_000)
  expect(dropped.first).toMatchObject({ type: 'signup', userId: 'user-1000' })
  expect(dropped.last).toMatchObject({ type: 'signup', userId: 'user-29999' })
  expect(await queueSize(page)).toBe(1000)
  expect(await storedChars(page)).toBeLessThan(100_000)
  expect(referralLines(log.console)).toEqual([WARNING])
  // Offline the whole time: the tracking part was never asked for, nothing reached the service.
  expect(h.service.requests.map((request) => request.path)).toEqual(['/referral-widget.js'])
  await page.close()
  expect(h.service.service.requestLog.since(0)).toEqual([])
})

it('1,200 sign-ups offline: 200 announced at once; back online the 1,000 kept are accepted once, and nothing more is dropped', async () => {
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(listeningPage())
  await page.waitForLoadState('networkidle')
  await context.setOffline(true)
  await expect.poll(() => page.evaluate(() => navigator.onLine), FAST).toBe(false)
  await signups(page, 0, 1200)
  expect(await heardCount(page)).toBe(200)
  expect(await queueSize(page)).toBe(1000)
  expect(referralLines(log.console)).toEqual([WARNING])

  await context.setOffline(false)
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(1000)
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  expect([...h.acceptedCounts().values()].every((count) => count === 1)).toBe(true)
  expect(await heardCount(page)).toBe(200)
})
