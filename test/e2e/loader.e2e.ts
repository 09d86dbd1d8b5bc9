// The loader (referral-widget.js) on its own: a quiet page downloads it alone and asks the service
// nothing; what it keeps at once (an arrival, a signup) survives a page that goes away or offline
// before the tracking part arrives, and is counted once on the next chance; a part that cannot
// load leaves no promise pending.
import type { BrowserContext, Route } from 'playwright-core'
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, queueSize, storageEntries } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

const scriptFiles = () =>
  h.service.requests.map((request) => request.path).filter((path) => path.endsWith('.js'))

/** The records the loader keeps for the tracking part, in the page's storage. */
const keptIn = async (page: Parameters<typeof storageEntries>[0]) =>
  Object.keys(await storageEntries(page)).filter((key) => key.includes(':kept:'))

/** Holds every request for `file` (it never arrives) until the returned release is called. */
async function holdFile(context: BrowserContext, file: string) {
  const held: Route[] = []
  const pattern = `**/${file}`
  await context.route(pattern, (route) => {
    held.push(route)
  })
  return async () => {
    await context.unroute(pattern)
    for (const route of held) await route.abort().catch(() => {})
  }
}

it.each([
  { name: 'the tag alone', attributes: { 'user-id': 'alice' } },
  { name: 'data-cookie-domain', attributes: { 'cookie-domain': '127.0.0.1' } },
  { name: 'data-outbound', attributes: { outbound: 'app.example' } },
])(
  'a quiet page ($name) loads one file, asks the service nothing and stores nothing',
  async ({ attributes }) => {
    const url = h.host.page('/about', { html: widgetPage(h.service, { panel: false, attributes }) })
    const context = await h.newContext()
    const { page, log } = await h.open(context)
    await page.goto(url)
    await page.waitForLoadState('networkidle')

    expect(h.service.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /referral-widget.js',
    ])
    expect(h.service.service.requestLog.since(0)).toEqual([])
    // What the page's own performance timeline saw from the service: that one file.
    const fetched = await page.evaluate((origin) => {
      return performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.startsWith(origin))
    }, h.service.url)
    expect(fetched).toEqual([`${h.service.url}/referral-widget.js`])
    expect(await storageEntries(page)).toEqual({})
    // window.Referral answers at once all the same.
    expect(await callReferral(page, 'getAttribution')).toBeNull()
    expect(await queueSize(page)).toBe(0)
    expect(await callReferral(page, 'decorate', 'https://app.example/x')).toBe(
      'https://app.example/x',
    )
    expect(log.console.filter((line) => line.includes('[referral]'))).toEqual([])
  },
)

it('a page closed right after arrival, before the tracking part came, counts the click on the next page, once', async () => {
  const code = await h.linkCode('alice')
  const context = await h.newContext()
  const release = await holdFile(context, 'referral-widget-tracking-delivery.js')
  const first = await h.open(context)
  const landing = h.host.page('/', { html: widgetPage(h.service, { panel: false }) })
  // The held file keeps the page from its load event: only the document is waited for.
  await first.page.goto(`${landing}?ref=${code}`, { waitUntil: 'domcontentloaded' })
  // The loader kept the arrival at once; the tracking part never arrived.
  await expect.poll(() => keptIn(first.page), FAST).toHaveLength(1)
  expect(h.service.service.requestLog.since(0)).toEqual([])
  await first.page.close()
  await release()

  // The next page (no referral in its address) loads the tracking part for what was kept.
  const next = h.host.page('/pricing', { html: widgetPage(h.service, { panel: false }) })
  const second = await h.open(context)
  await second.page.goto(next)
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })
  const held = (await callReferral(second.page, 'getAttribution')) as { code: string } | null
  expect(held?.code).toBe(code)
  await expect.poll(() => keptIn(second.page), FAST).toEqual([])

  // And never again: a third page, a reload.
  const third = await h.open(context)
  await third.page.goto(next)
  await third.page.reload()
  await third.page.waitForLoadState('networkidle')
  expect(await h.stats()).toMatchObject({ totalClicks: 1 })
  expect([...h.acceptedCounts().values()]).toEqual([1])
})

it('a signup on a page that moves on before the tracking part came is sent from the next page, once', async () => {
  const code = await h.linkCode('alice')
  const context = await h.newContext()
  // The arrival, counted on a page of its own.
  const arrived = await h.open(context)
  const landing = h.host.page('/', { html: widgetPage(h.service, { panel: false }) })
  await arrived.page.goto(`${landing}?ref=${code}`)
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })

  // The welcome page signs the visitor up and moves on at once; its tracking part never came (a
  // held referral asks for it at once, without delivery).
  const release = await holdFile(context, 'referral-widget-tracking*.js')
  const welcome = await h.open(context)
  const page = h.host.page('/welcome', { html: widgetPage(h.service, { panel: false }) })
  await welcome.page.goto(page, { waitUntil: 'domcontentloaded' })
  await welcome.page.waitForFunction(
    () => typeof (window as { Referral?: unknown }).Referral === 'function',
  )
  expect(await callReferral(welcome.page, 'track', 'signup', { userId: 'carol' })).toBe(true)
  expect(await keptIn(welcome.page)).toHaveLength(1)
  await welcome.page.close()
  await release()

  const next = await h.open(context)
  await next.page.goto(h.host.page('/app', { html: widgetPage(h.service, { panel: false }) }))
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1, totalConversions: 1 })
  expect([...h.acceptedCounts().values()]).toEqual([1, 1])
})

it('signups on a quiet page gone offline are kept at once, counted by queueSize, and sent once it is back online', async () => {
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(h.host.page('/account', { html: widgetPage(h.service, { panel: false }) }))
  await page.waitForLoadState('networkidle')
  expect(scriptFiles()).toEqual(['/referral-widget.js'])

  await context.setOffline(true)
  await expect.poll(() => page.evaluate(() => navigator.onLine), FAST).toBe(false)
  for (const userId of ['dana', 'eli', 'fay'])
    expect(await callReferral(page, 'track', 'signup', { userId })).toBe(true)
  expect(await keptIn(page)).toHaveLength(3)
  expect(await queueSize(page)).toBe(3)

  await context.setOffline(false)
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(3)
  expect([...h.acceptedCounts().values()]).toEqual([1, 1, 1])
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  expect(await keptIn(page)).toEqual([])
  // Offline, the part was not even asked for (and not loading it is no error): one request for
  // it, once back online, and nothing said.
  expect(scriptFiles()).toEqual(['/referral-widget.js', '/referral-widget-tracking-delivery.js'])
  expect(log.console.filter((line) => line.includes('[referral]'))).toEqual([])
})

it('a tracking part that cannot load leaves no promise pending: offline flush() resolves at once; blocked online, flush() resolves, getLink() and diagnose() reject naming the file', async () => {
  const url = h.host.page('/checkout', {
    html: widgetPage(h.service, { panel: false, attributes: { 'user-id': 'alice' } }),
  })
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(url)
  await page.waitForLoadState('networkidle')
  /** What each call's promise came to, as the page sees it. */
  const outcomes = (names: string[]) =>
    page.evaluate(
      (names) =>
        Promise.all(
          names.map((name) =>
            (
              (window as unknown as { Referral: Record<string, () => Promise<unknown>> }).Referral[
                name
              ] as () => Promise<unknown>
            )().then(
              () => `${name}: resolved`,
              (error: Error) => `${name}: ${error.message}`,
            ),
          ),
        ),
      names,
    )

  // Offline, the part is not even asked for: a sign-up is kept, and flush() says the queue was tried.
  await context.setOffline(true)
  await expect.poll(() => page.evaluate(() => navigator.onLine), FAST).toBe(false)
  expect(await callReferral(page, 'track', 'signup', { userId: 'dana' })).toBe(true)
  expect(await outcomes(['flush'])).toEqual(['flush: resolved'])

  // Back online, a blocker refuses the tracking part (as an extension does): nothing hangs.
  await context.route('**/referral-widget-tracking*.js', (route) => route.abort('blockedbyclient'))
  await context.setOffline(false)
  const settled = await outcomes(['flush', 'getLink', 'diagnose'])
  expect(settled[0]).toBe('flush: resolved')
  for (const [n, name] of ['getLink', 'diagnose'].entries())
    expect(settled[n + 1]).toMatch(
      new RegExp(
        `^${name}: The widget could not be loaded from referral-widget-tracking-delivery\\.js beside the script\\.$`,
      ),
    )
  // The sign-up waits in storage for a page that has the part; the console said why.
  expect(await keptIn(page)).toHaveLength(1)
  expect(log.console.some((line) => line.includes('referral-widget-tracking-delivery.js'))).toBe(
    true,
  )
})
