// What a hostile or careless page cannot make the widget do: use a secret key, run markup from
// the service or the address bar, be broken by the host's CSS, or need CSP exceptions.
import { describe, expect, it } from 'vitest'
import {
  builtIntegrity,
  callReferral,
  FAST,
  pinnedTag,
  queueSize,
  READY_ROOT,
  serveChanged,
  storageEntries,
  useHarness,
  waitForApi,
  widgetPage,
} from './support/harness.ts'

const h = useHarness()

const refusedKeys = [
  { name: 'a secret key', key: 'sk_test_acme', message: /secret key.*never reach a browser/i },
  { name: 'a missing key', key: null, message: /data-key/ },
  { name: 'a malformed key', key: 'pk_test_no!', message: /data-key/ },
] as const

it.each(refusedKeys)(
  'refuses $name: one console.error, no request, no UI',
  async ({ key, message }) => {
    const url = h.host.page('/', { html: widgetPage(h.service, { key, banner: true }) })
    const context = await h.newContext()
    const { page, log } = await h.open(context)
    await page.goto(url) // the async script has run once the load event has fired
    await page.waitForLoadState('networkidle')

    const errors = log.console.filter((line) => line.startsWith('error:'))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(message)
    if (key !== null) expect(errors[0], 'the key is not echoed').not.toContain(key)
    // The service's origin saw the script file and nothing else: no API call, no UI chunk.
    expect(h.service.requests.map((request) => request.path)).toEqual(['/referral-widget.js'])
    expect(h.service.service.requestLog.since(0)).toEqual([])
    // No UI, nothing stored.
    const shadows = await page.evaluate(() =>
      [...document.querySelectorAll('[data-referral-widget],[data-referral-banner]')].map(
        (element) => element.shadowRoot !== null,
      ),
    )
    expect(shadows).toEqual([false, false])
    expect(Object.keys(await storageEntries(page))).toEqual([])
  },
)

it('renders a hostile campaign name as text: no element, no script, no dialog', async () => {
  const hostile = '<img src=x onerror=alert(1)>'
  const { status, body } = await h.admin('POST', '/v1/campaigns', {
    name: hostile,
    description: '<script>alert(2)</script>',
    rewardTrigger: 'signup',
    referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
    referredReward: { type: 'credit', amount: 10, currency: 'USD' },
  })
  expect(status).toBe(201)
  const campaignId = (body as { id: string }).id
  const code = await h.linkCode('alice', campaignId)
  const url = h.host.page('/', {
    html: widgetPage(h.service, {
      banner: true,
      attributes: { campaign: campaignId, 'user-id': 'alice' },
    }),
  })
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(`${url}?ref=${code}`)
  await page.locator(READY_ROOT).waitFor()
  await page.locator('[data-part="banner"]').waitFor()
  await page.locator('[data-part="link"]').waitFor()

  // The name is there, as text (an accessible name), in the panel and the banner.
  expect(await page.locator(READY_ROOT).getAttribute('aria-label')).toBe(hostile)
  expect(await page.locator('[data-part="banner"]').getAttribute('aria-label')).toBe(hostile)
  // No element came of it, in the page or in any shadow root, and nothing ran.
  expect(await page.locator('img').count()).toBe(0)
  expect(await page.locator('script:not([src])').count()).toBe(0)
  expect(log.dialogs).toEqual([])
  expect(h.host.requests.map((request) => request.path)).not.toContain('/x')
})

it('ignores a hostile ?ref=: not stored, not sent, removed from the address bar', async () => {
  const url = h.host.page('/landing', {
    html: widgetPage(h.service, { banner: true, attributes: { 'user-id': 'alice' } }),
  })
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  const hostileRef = '%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E'
  await page.goto(`${url}?ref=${hostileRef}&utm_source=mail`)
  await page.locator(READY_ROOT).waitFor()
  await waitForApi(page)

  await expect.poll(() => page.url(), FAST).toBe(`${url}?utm_source=mail`)
  expect(await callReferral(page, 'getAttribution')).toBeNull()
  expect(await queueSize(page)).toBe(0)
  await page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )
  expect(h.eventRequests()).toEqual([])
  expect(log.requests.some((request) => request.includes('/v1/events'))).toBe(false)
  const toService = log.requests.filter((request) => request.startsWith(h.service.url))
  expect(toService.some((request) => /script|alert|%3C|%22/i.test(request))).toBe(false)

  const entries = await storageEntries(page)
  expect(JSON.stringify(entries)).not.toMatch(/script|alert|%3C|%22|</i)
  expect(Object.keys(entries).filter((key) => /:(attribution|clicks|q:.*)$/.test(key))).toEqual([])
  expect(await page.locator('[data-part="banner"]').count()).toBe(0)
  expect(await page.locator('script:not([src])').count()).toBe(0)
  expect(log.dialogs).toEqual([])
})

it('stays visible and usable under hostile host CSS', async () => {
  const hostileCss = `
* { all: unset !important; }
div { display: none !important; }
button, input, a { display: none !important; visibility: hidden !important; }
section, h2, ul, li, label { display: none !important; }
* { font-size: 0 !important; line-height: 0 !important; color: transparent !important;
    letter-spacing: -10px !important; text-transform: uppercase !important; }
[data-referral-widget] { font: 0/0 serif !important; color: transparent !important; }
`
  h.host.page('/hostile.css', { html: hostileCss, type: 'text/css; charset=utf-8' })
  const url = h.host.page('/', {
    html: widgetPage(h.service, {
      head: '<link rel="stylesheet" href="/hostile.css">',
      before: '<div id="probe">the site’s own content</div>',
      attributes: { 'user-id': 'alice' },
    }),
  })
  const context = await h.newContext()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.host.url })
  const { page } = await h.open(context)
  await page.goto(url)
  // The stylesheet did apply to the page itself.
  expect(
    await page.evaluate(
      () => getComputedStyle(document.querySelector('#probe') as Element).display,
    ),
  ).toBe('none')
  await page.locator(READY_ROOT).waitFor()

  const link = page.locator('[data-part="link"]')
  const copy = page.locator('[data-part="copy"]')
  await link.waitFor()
  expect(await copy.isVisible()).toBe(true)
  expect(await link.isVisible()).toBe(true)
  const box = await copy.boundingBox()
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(24)
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(24)
  const style = await copy.evaluate((element) => {
    const computed = getComputedStyle(element)
    return { fontSize: Number.parseFloat(computed.fontSize), color: computed.color }
  })
  expect(style.fontSize).toBeGreaterThanOrEqual(12)
  expect(style.color).not.toBe('rgba(0, 0, 0, 0)')

  // Usable: a real click (Playwright checks the button receives it) copies the link.
  await copy.click()
  await expect
    .poll(() => page.locator('[data-part="status"]').textContent(), FAST)
    .toBe('Link copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await link.inputValue())
})

it('keeps the host page’s inherited typography out of the panel’s text', async () => {
  // Ordinary site-wide rules on <body>: inherited properties cross a shadow boundary unless the
  // widget resets them, and these would reshape or overflow the panel's text.
  h.host.page('/site.css', {
    html: `body { letter-spacing: .25em; word-spacing: .5em; text-transform: uppercase;
  text-indent: 4em; text-shadow: 1px 1px 2px red; white-space: nowrap; }`,
    type: 'text/css',
  })
  const url = h.host.page('/', {
    html: widgetPage(h.service, {
      head: '<link rel="stylesheet" href="/site.css">',
      attributes: { 'user-id': 'alice', locale: 'en-US' },
    }),
  })
  const context = await h.newContext({ viewport: { width: 280, height: 640 } })
  const { page } = await h.open(context)
  await page.goto(url)
  await page.locator('[data-part="link"]').waitFor()

  const typography = await page.locator('[data-part="headline"]').evaluate((element) => {
    const style = getComputedStyle(element)
    return {
      letterSpacing: style.letterSpacing,
      wordSpacing: style.wordSpacing,
      textTransform: style.textTransform,
      textIndent: style.textIndent,
      textShadow: style.textShadow,
      whiteSpace: style.whiteSpace,
    }
  })
  expect(typography).toEqual({
    letterSpacing: 'normal',
    wordSpacing: '0px',
    textTransform: 'none',
    textIndent: '0px',
    textShadow: 'none',
    whiteSpace: 'normal',
  })
  const overflow = await page
    .locator(READY_ROOT)
    .evaluate((element) => element.scrollWidth - element.clientWidth)
  expect(overflow, 'the panel’s text overflows a 280 px column').toBeLessThanOrEqual(0)
})

it('works under a strict CSP with no violation', async () => {
  const code = await h.linkCode('bob')
  const csp = `default-src 'none'; script-src ${h.service.url}; style-src 'self'; connect-src ${h.service.url}`
  h.host.page('/site.css', { html: 'body { margin: 2rem; }', type: 'text/css' })
  const url = h.host.page('/', {
    csp,
    html: widgetPage(h.service, {
      banner: true,
      head: '<link rel="stylesheet" href="/site.css">',
      attributes: { 'user-id': 'alice' },
    }),
  })
  const context = await h.newContext()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.host.url })
  const { page, log } = await h.open(context)
  const response = await page.goto(`${url}?ref=${code}`)
  expect(response?.headers()['content-security-policy']).toBe(csp)

  await page.locator(READY_ROOT).waitFor()
  await page.locator('[data-part="banner"]').waitFor()
  const link = page.locator('[data-part="link"]')
  await link.waitFor()
  // The widget's own styles applied (constructable stylesheets need no style-src exception).
  const padding = await page
    .locator(READY_ROOT)
    .evaluate((element) => getComputedStyle(element).paddingTop)
  expect(padding).toBe('16px')
  await page.locator('[data-part="copy"]').click()
  await expect
    .poll(() => page.locator('[data-part="status"]').textContent(), FAST)
    .toBe('Link copied')
  // The click through bob's link reached the service.
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })
  await page.waitForLoadState('networkidle')
  expect(log.cspViolations).toEqual([])
  expect(log.console.filter((line) => /Content Security Policy|Refused/i.test(line))).toEqual([])
})

describe('Subresource Integrity', () => {
  const integrity = builtIntegrity()

  it('the script tag with the build’s integrity and crossorigin runs, and the panel shows', async () => {
    const hash = integrity['referral-widget.js']
    expect(hash).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/)
    const url = h.host.page('/', {
      html: widgetPage(h.service, {
        scriptAttributes: ` integrity="${hash}" crossorigin="anonymous"`,
        attributes: { 'user-id': 'alice' },
      }),
    })
    const context = await h.newContext()
    const { page, log } = await h.open(context)
    await page.goto(url)
    await page.locator(READY_ROOT).waitFor()
    await page.locator('[data-part="link"]').waitFor()
    expect(log.console.filter((line) => line.startsWith('error:'))).toEqual([])
  })

  it('a changed UI file never runs under a correct tag hash: no panel, tracking goes on', async () => {
    // The tracking file carries the UI files' own hashes, so the tag's one hash pins them too.
    const url = h.host.page('/', {
      html: widgetPage(h.service, {
        scriptAttributes: pinnedTag(),
        attributes: { 'user-id': 'alice' },
      }),
    })
    const context = await h.newContext()
    await serveChanged(context, 'referral-widget-ui.js')
    const { page, log } = await h.open(context)
    await page.goto(url)
    await expect
      .poll(() => log.console.filter((line) => line.startsWith('error:')).join('\n'), FAST)
      .toMatch(/\[referral\] The panel could not be loaded from referral-widget-ui\.js/)
    expect(log.console.join('\n')).toMatch(/integrity/i)
    expect(await page.evaluate(() => '__changed' in window)).toBe(false)
    expect(await page.locator(READY_ROOT).count()).toBe(0)
    // The tracking file itself was intact: its commands still work.
    expect(
      await page.evaluate(
        () => typeof (window as { Referral?: { track?: unknown } }).Referral?.track,
      ),
    ).toBe('function')
  })

  it('a file that does not match its integrity never runs: no request, no UI, nothing stored', async () => {
    const wrong = integrity['referral-widget-ui.js'] // a real hash, of another file
    const url = h.host.page('/', {
      html: widgetPage(h.service, {
        scriptAttributes: ` integrity="${wrong}" crossorigin="anonymous"`,
        banner: true,
      }),
    })
    const context = await h.newContext()
    const { page, log } = await h.open(context)
    await page.goto(`${url}?ref=ABCD1234`)
    await page.waitForLoadState('networkidle')

    expect(log.console.join('\n')).toMatch(/integrity/i)
    expect(await page.evaluate(() => 'Referral' in window)).toBe(false)
    expect(h.service.requests.map((request) => request.path)).toEqual(['/referral-widget.js'])
    expect(h.service.service.requestLog.since(0)).toEqual([])
    expect(Object.keys(await storageEntries(page))).toEqual([])
    expect(page.url()).toContain('ref=ABCD1234') // the script never ran: nothing touched the page
  })
})

describe('Global Privacy Control', () => {
  const withSignal = async () => {
    const context = await h.newContext()
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })
    })
    return context
  }

  it('with data-honor-gpc, a visitor sending the signal through a link is not recorded', async () => {
    const code = await h.linkCode('alice')
    const url = h.host.page('/landing', {
      html: widgetPage(h.service, { banner: true, attributes: { 'honor-gpc': 'true' } }),
    })
    const { page, log } = await h.open(await withSignal())
    await page.goto(`${url}?ref=${code}&utm_source=mail`)
    await page.locator(READY_ROOT).waitFor()
    await waitForApi(page)

    await expect.poll(() => page.url(), FAST).toBe(`${url}?utm_source=mail`)
    expect(await callReferral(page, 'getAttribution')).toBeNull()
    await page.evaluate(() =>
      (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
    )
    expect(h.eventRequests()).toEqual([])
    expect((await h.stats()).totalClicks).toBe(0)
    expect(await page.locator('[data-part="banner"]').count()).toBe(0)
    expect(log.console).toContain(
      'info: [referral] Global Privacy Control is on: this visit through a referral link is not recorded.',
    )
  })

  it('without data-honor-gpc, the same visit is recorded as usual', async () => {
    const code = await h.linkCode('alice')
    const url = h.host.page('/landing', { html: widgetPage(h.service, { banner: true }) })
    const { page } = await h.open(await withSignal())
    await page.goto(`${url}?ref=${code}`)
    await page.locator('[data-part="banner"]').waitFor()
    await expect.poll(async () => (await h.stats()).totalClicks, FAST).toBe(1)
  })
})
