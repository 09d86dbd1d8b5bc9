// The script tag's later part (issue 13): the tracking part carries only tracking; the campaign,
// the link and the stores come in the UI file on a panel page, or in the link file on the first
// getLink() elsewhere. Calls made meanwhile wait and resolve in order, and the requests the
// later part needs are sent without waiting for its file. (A quiet page loads the loader alone:
// the tracking part comes with the first call that needs it.)
import { describe, expect, it } from 'vitest'
import { FAST, SEEDED_CAMPAIGN, useHarness } from './support/harness.ts'
import { READY_ROOT, waitForApi } from './support/in-page.ts'
import { pinnedTag, STUB, serveChanged, widgetPage } from './support/widget-page.ts'

const h = useHarness()

const scriptFiles = () =>
  h.service.requests.map((request) => request.path).filter((path) => path.endsWith('.js'))

interface PageLink {
  code: string
  url: string
}

describe('a page without a panel', () => {
  it('downloads only the loader until getLink(), then the tracking part and the link file once', async () => {
    const url = h.host.page('/settings', {
      html: widgetPage(h.service, { panel: false, attributes: { campaign: SEEDED_CAMPAIGN } }),
    })
    const context = await h.newContext()
    const { page } = await h.open(context)
    await page.goto(url)
    await waitForApi(page)
    await page.waitForLoadState('networkidle')
    expect(scriptFiles()).toEqual(['/referral-widget.js'])

    const links = await page.evaluate(async () => {
      const referral = (
        window as unknown as {
          Referral: ((...args: unknown[]) => unknown) & { getLink(): Promise<PageLink> }
        }
      ).Referral
      referral('identify', 'alice')
      // Two calls while the file is on its way, one after: each resolves with alice's link.
      const [first, second] = await Promise.all([referral.getLink(), referral.getLink()])
      const third = await referral.getLink()
      return [first, second, third]
    })
    const code = await h.linkCode('alice', SEEDED_CAMPAIGN)
    for (const link of links) expect(link).toEqual({ code, url: `${h.host.url}/?ref=${code}` })
    expect(scriptFiles()).toEqual([
      '/referral-widget.js',
      '/referral-widget-tracking.js',
      '/referral-widget-link.js',
    ])
  })

  it('runs the calls the stub queued before load in order: the last identify wins', async () => {
    const url = h.host.page('/settings', {
      html: widgetPage(h.service, {
        panel: false,
        attributes: { campaign: SEEDED_CAMPAIGN },
        before: `<script>${STUB};Referral('identify','alice');Referral('identify','bob');Referral('on','link',function(l){window.__links=(window.__links||[]).concat(l.code)})</script>`,
      }),
    })
    const context = await h.newContext()
    const { page } = await h.open(context)
    await page.goto(url)
    await waitForApi(page)
    const link = await page.evaluate(() =>
      (window as unknown as { Referral: { getLink(): Promise<PageLink> } }).Referral.getLink(),
    )
    const bob = await h.linkCode('bob', SEEDED_CAMPAIGN)
    expect(link.code).toBe(bob)
    await expect
      .poll(() => page.evaluate(() => (window as { __links?: string[] }).__links), FAST)
      .toEqual([bob])
  })

  it('getLink() without a signed-in user rejects with the same clear error as before', async () => {
    const url = h.host.page('/', { html: widgetPage(h.service, { panel: false }) })
    const context = await h.newContext()
    const { page } = await h.open(context)
    await page.goto(url)
    await waitForApi(page)
    const message = await page.evaluate(() =>
      (window as unknown as { Referral: { getLink(): Promise<unknown> } }).Referral.getLink().then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
    )
    expect(message).toBe('getLink() needs a signed-in user: call identify(userId) first.')
  })

  it('a link file that failed to load is asked for again by the next call', async () => {
    const url = h.host.page('/', {
      html: widgetPage(h.service, {
        panel: false,
        attributes: { campaign: SEEDED_CAMPAIGN, 'user-id': 'dana' },
      }),
    })
    const context = await h.newContext()
    let refused = 0
    await context.route('**/referral-widget-link.js', (route) => {
      if (refused++ === 0) return route.abort('connectionreset')
      return route.continue()
    })
    const { page } = await h.open(context)
    await page.goto(url)
    await waitForApi(page)
    const outcomes = await page.evaluate(async () => {
      const referral = (window as unknown as { Referral: { getLink(): Promise<PageLink> } })
        .Referral
      const pending = referral.getLink()
      // Identified while the file is on its way: kept for the next try when it fails.
      ;(referral as unknown as (...args: unknown[]) => void)('identify', 'erin')
      const first = await pending.then(
        () => 'resolved',
        (error: Error) => error.message,
      )
      const second = await referral.getLink()
      return { first, second }
    })
    expect(outcomes.first).toBe('could not load referral-widget-link.js')
    const code = await h.linkCode('erin', SEEDED_CAMPAIGN)
    expect(outcomes.second.code).toBe(code)
    expect(refused).toBe(2)
  })

  it('a changed link file never runs under a correct tag hash; getLink() rejects', async () => {
    const url = h.host.page('/', {
      html: widgetPage(h.service, {
        panel: false,
        scriptAttributes: pinnedTag(),
        attributes: { 'user-id': 'alice' },
      }),
    })
    const context = await h.newContext()
    await serveChanged(context, 'referral-widget-link.js')
    const { page, log } = await h.open(context)
    await page.goto(url)
    await waitForApi(page)
    const outcome = await page.evaluate(() =>
      (window as unknown as { Referral: { getLink(): Promise<unknown> } }).Referral.getLink().then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
    )
    expect(outcome).toMatch(/referral-widget-link\.js/)
    expect(log.console.join('\n')).toMatch(/integrity/i)
    expect(await page.evaluate(() => '__changed' in window)).toBe(false)
  })
})

describe('a page with a panel', () => {
  it('sends the campaign and link requests while its UI file is still on the way', async () => {
    const url = h.host.page('/account', {
      html: widgetPage(h.service, {
        attributes: { campaign: SEEDED_CAMPAIGN, 'user-id': 'carol', locale: 'en-US' },
      }),
    })
    const context = await h.newContext()
    const apiBeforeUi: string[] = []
    // The UI file is held until both requests reached the service (or 5 s passed).
    await context.route('**/referral-widget-ui.js', async (route) => {
      const seen = () =>
        h.service.service.requestLog
          .since(0)
          .map((entry) => `${entry.method} ${entry.path}`)
          .filter((line) => /^(GET \/v1\/campaigns|POST \/v1\/links)/.test(line))
      for (let i = 0; i < 100 && seen().length < 2; i++) await new Promise((r) => setTimeout(r, 50))
      apiBeforeUi.push(...seen())
      await route.continue()
    })
    const { page } = await h.open(context)
    await page.goto(url)
    await page.locator(READY_ROOT).waitFor()
    await page.locator('[data-part="link"]').waitFor()
    expect(apiBeforeUi).toEqual([`GET /v1/campaigns/${SEEDED_CAMPAIGN}`, 'POST /v1/links'])
    // The link the panel shows is the one that request made; no second link request.
    const code = await h.linkCode('carol', SEEDED_CAMPAIGN)
    expect(await page.locator('[data-part="link"]').inputValue()).toBe(`${h.host.url}/?ref=${code}`)
    // The loader asks for the UI file and the tracking part together.
    expect(scriptFiles().sort()).toEqual([
      '/referral-widget-tracking.js',
      '/referral-widget-ui.js',
      '/referral-widget.js',
    ])
  })
})

describe('the panel’s own attributes', () => {
  it('data-messages and data-share-utm are read by the UI file: applied, or reported and left out', async () => {
    const url = h.host.page('/account', {
      html: widgetPage(h.service, {
        attributes: {
          campaign: SEEDED_CAMPAIGN,
          'user-id': 'alice',
          messages: '{"copy":"Grab it","share":42}',
          'share-utm': 'maybe',
        },
      }),
    })
    const context = await h.newContext()
    const { page, log } = await h.open(context)
    await page.goto(url)
    await page.locator('[data-part="link"]').waitFor()
    expect(await page.locator('[data-part="copy"]').textContent()).toBe('Grab it')
    expect(log.console.filter((line) => line.startsWith('error: [referral]'))).toEqual([
      'error: [referral] data-share-utm="maybe" is ignored: it must be true or false.',
    ])
    const xHref = await page.locator('[data-part="share"] a[data-network="x"]').getAttribute('href')
    expect(xHref).not.toContain('utm_source')
  })
})

describe('a page in another built-in language', () => {
  /** A German panel page whose tag is pinned by the build's hash. */
  const pinnedGermanPage = () =>
    h.host.page('/konto', {
      html: widgetPage(h.service, {
        scriptAttributes: pinnedTag(),
        attributes: { campaign: SEEDED_CAMPAIGN, 'user-id': 'erika', locale: 'de' },
      }),
    })

  it('fetches its messages file beside the UI file, at the same time, and shows that language', async () => {
    const url = h.host.page('/konto', {
      html: widgetPage(h.service, {
        attributes: { campaign: SEEDED_CAMPAIGN, 'user-id': 'erika', locale: 'de-DE' },
      }),
    })
    const context = await h.newContext({ locale: 'de-DE' })
    let messagesAsked = false
    let askedBeforeUi = false
    // The UI file is held until the messages file was asked for (or 5 s passed).
    await context.route('**/referral-widget-ui.js', async (route) => {
      for (let i = 0; i < 100 && !messagesAsked; i++) await new Promise((r) => setTimeout(r, 50))
      askedBeforeUi = messagesAsked
      await route.continue()
    })
    await context.route('**/referral-widget-messages-de.js', (route) => {
      messagesAsked = true
      return route.continue()
    })
    const { page } = await h.open(context)
    await page.goto(url)
    await page.locator(READY_ROOT).waitFor()
    expect(askedBeforeUi).toBe(true)
    expect(await page.locator('[data-part="copy"]').textContent()).toBe('Link kopieren')
    expect(scriptFiles().sort()).toEqual([
      '/referral-widget-messages-de.js',
      '/referral-widget-tracking.js',
      '/referral-widget-ui.js',
      '/referral-widget.js',
    ])
  })

  it('pinned: a changed messages file never runs; the panel shows English and says why', async () => {
    const url = pinnedGermanPage()
    const context = await h.newContext()
    await serveChanged(context, 'referral-widget-messages-de.js')
    const { page, log } = await h.open(context)
    await page.goto(url)
    await page.locator(READY_ROOT).waitFor()
    expect(await page.evaluate(() => '__changed' in window)).toBe(false)
    expect(await page.locator('[data-part="copy"]').textContent()).toBe('Copy link')
    expect(log.console.filter((line) => line.startsWith('error: [referral]'))).toEqual([
      'error: [referral] The de messages could not be loaded from referral-widget-messages-de.js; the panel shows English.',
    ])
  })

  it('pinned and intact: the messages file is loaded with its hash and the panel is in German', async () => {
    const url = pinnedGermanPage()
    const context = await h.newContext()
    const { page } = await h.open(context)
    await page.goto(url)
    await page.locator(READY_ROOT).waitFor()
    expect(await page.locator('[data-part="copy"]').textContent()).toBe('Link kopieren')
    const integrityOf = await page.evaluate(() =>
      Array.from(
        document.querySelectorAll<HTMLScriptElement>('script[src*="messages"]'),
        (s) => s.integrity,
      ),
    )
    expect(integrityOf).toEqual([expect.stringMatching(/^sha256-/)])
  })
})
