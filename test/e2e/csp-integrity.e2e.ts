// The widget on a locked-down page: under a strict CSP it needs no exception and causes no
// violation, and pinned with Subresource Integrity a changed or mismatched file never runs.
import { describe, expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { READY_ROOT, storageEntries } from './support/in-page.ts'
import { builtIntegrity, pinnedTag, serveChanged, widgetPage } from './support/widget-page.ts'

const h = useHarness()

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
  // The panel's status: the banner has its own, for its promotion code.
  await expect
    .poll(() => page.locator('[data-part="root"] [data-part="status"]').textContent(), FAST)
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
    // The pins file carries the UI files' own hashes, so the tag's one hash pins them too.
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

  it('a changed pins file never runs, nor any file it would pin: the sign-up waits in storage, nothing pending', async () => {
    const url = h.host.page('/', {
      html: widgetPage(h.service, {
        scriptAttributes: pinnedTag(),
        panel: false,
        attributes: { 'user-id': 'alice' },
      }),
    })
    const context = await h.newContext()
    await serveChanged(context, 'referral-widget-pins.js')
    const { page, log } = await h.open(context)
    await page.goto(url)
    await page.waitForLoadState('networkidle')
    const flushed = await page.evaluate(() => {
      const referral = (window as unknown as { Referral: (...args: unknown[]) => unknown }).Referral
      referral('track', 'signup', { userId: 'dana' })
      return (referral('flush') as Promise<unknown>).then(() => 'resolved')
    })
    expect(flushed).toBe('resolved')
    expect(await page.evaluate(() => '__changed' in window)).toBe(false)
    // The pins file was asked for (and answered by the route above), refused, and nothing it
    // pins was asked for after it.
    expect(log.requests.filter((request) => request.endsWith('.js'))).toEqual([
      `${h.service.url}/referral-widget.js`,
      `${h.service.url}/referral-widget-pins.js`,
    ])
    expect(log.console.filter((line) => line.startsWith('error: [referral]'))).toEqual([
      'error: [referral] The widget could not be loaded from referral-widget-pins.js beside the script.',
    ])
    expect(
      Object.keys(await storageEntries(page)).filter((key) => key.includes(':kept:')),
    ).toHaveLength(1)
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
