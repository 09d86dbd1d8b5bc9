// The widget under Trusted Types (`require-trusted-types-for 'script'`): with its policy allowed
// by the page's CSP, everything works (panel, messages file, QR dialog, pinned files) with no
// violation and one policy; with no policy allowed, tracking goes on, the panel says once why it
// cannot load, and nothing is thrown into the page.
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { FAST, SEEDED_CAMPAIGN, useHarness } from './support/harness.ts'
import { callReferral, READY_ROOT, waitForApi } from './support/in-page.ts'
import { pinnedTag, widgetPage } from './support/widget-page.ts'

const h = useHarness()

const ENFORCED = "require-trusted-types-for 'script'"
/** A page's CSP that lets the widget make its one policy. */
const WITH_POLICY = `${ENFORCED}; trusted-types referral-widget`

const scriptsFetched = () =>
  h.service.requests
    .map((request) => request.path.split('?')[0] ?? '')
    .filter((path) => path.endsWith('.js'))

/** A context that records the name of every Trusted Types policy a page creates. */
async function recordingPolicies(): Promise<BrowserContext> {
  const context = await h.newContext({ locale: 'de-DE' })
  await context.addInitScript(() => {
    type Factory = { createPolicy(name: string, rules: object): unknown }
    const factory = (window as unknown as { trustedTypes?: Factory }).trustedTypes
    const names: string[] = []
    ;(window as unknown as { __policies: string[] }).__policies = names
    if (!factory) return
    const create = factory.createPolicy.bind(factory)
    factory.createPolicy = (name, rules) => {
      names.push(name)
      return create(name, rules)
    }
  })
  return context
}

const policiesOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __policies: string[] }).__policies)

/** Opens the QR dialog with the keyboard and waits for its code. */
async function openQr(page: Page) {
  await page.locator('[data-network="qr"]').focus()
  await page.keyboard.press('Enter')
  await page.locator('[data-part="qr"][open] [data-part="qr-code"]').waitFor({ timeout: 10_000 })
}

describe('a page whose CSP allows the referral-widget policy', () => {
  for (const pinned of [false, true]) {
    it(`${pinned ? 'pinned by SRI: ' : ''}the panel in German and the QR dialog, no violation, one policy`, async () => {
      // Strict in every other way too, as such pages are.
      const csp = `default-src 'none'; script-src ${h.service.url}; connect-src ${h.service.url}; ${WITH_POLICY}`
      const url = h.host.page('/konto', {
        csp,
        html: widgetPage(h.service, {
          ...(pinned ? { scriptAttributes: pinnedTag() } : {}),
          attributes: { campaign: SEEDED_CAMPAIGN, 'user-id': 'erika', locale: 'de-DE' },
        }),
      })
      const context = await recordingPolicies()
      const { page, log } = await h.open(context)
      const response = await page.goto(url)
      expect(response?.headers()['content-security-policy']).toBe(csp)

      await page.locator(READY_ROOT).waitFor({ timeout: 10_000 })
      await page.locator('[data-part="link"]').waitFor()
      expect(await page.locator('[data-part="copy"]').textContent()).toBe('Link kopieren')
      const shareUrl = await page.locator('[data-part="link"]').inputValue()

      await openQr(page)
      const code = page.locator('[data-part="qr-code"]')
      expect(await code.getAttribute('aria-label')).toBe(`QR-Code für ${shareUrl}`)
      // The code's shapes are there (built as elements, not markup).
      expect(await code.evaluate((svg) => [...svg.children].map((node) => node.localName))).toEqual(
        ['rect', 'path'],
      )
      expect(await code.locator('path').getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/)

      // The tracking part, the messages and UI files come at the same time (order not fixed),
      // the QR file on use; pinned, the pins file first, through the same policy.
      const files = [
        '/referral-widget.js',
        ...(pinned ? ['/referral-widget-pins.js'] : []),
        '/referral-widget-tracking.js',
        '/referral-widget-ui.js',
        '/referral-widget-messages-de.js',
        '/referral-widget-qr.js',
      ]
      expect(new Set(scriptsFetched())).toEqual(new Set(files))
      expect(scriptsFetched()).toHaveLength(files.length)
      if (pinned) {
        const integrity = await page.evaluate(() =>
          Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]'), (script) => [
            new URL(script.src).pathname,
            script.integrity !== '',
          ]),
        )
        expect(
          integrity.every(([, has]) => has === true),
          JSON.stringify(integrity),
        ).toBe(true)
      }

      expect(await policiesOf(page)).toEqual(['referral-widget'])
      await page.waitForLoadState('networkidle')
      expect(log.cspViolations).toEqual([])
      expect(
        log.console.filter((line) => /Trusted ?Type|Content Security Policy/i.test(line)),
      ).toEqual([])
      expect(log.console.filter((line) => line.startsWith('error:'))).toEqual([])
    })
  }

  it('without a panel: the cookie file first, the link file on getLink(), through the same policy', async () => {
    const url = h.host.page('/', {
      csp: WITH_POLICY,
      html: widgetPage(h.service, {
        panel: false,
        attributes: { 'user-id': 'alice', 'cookie-domain': '127.0.0.1' },
      }),
    })
    const context = await recordingPolicies()
    const { page, log } = await h.open(context)
    await page.goto(url)
    await waitForApi(page)
    const link = await page.evaluate(() =>
      (
        window as unknown as { Referral: { getLink(): Promise<{ url: string }> } }
      ).Referral.getLink(),
    )
    expect(link.url).toContain('ref=')
    // One after the other: the loader alone on this quiet page; on the call, the tracking part,
    // the cookie file before tracking starts, then the link file.
    expect(scriptsFetched()).toEqual([
      '/referral-widget.js',
      '/referral-widget-tracking.js',
      '/referral-widget-cookie.js',
      '/referral-widget-link.js',
    ])
    expect(await policiesOf(page)).toEqual(['referral-widget'])
    expect(log.cspViolations).toEqual([])
    expect(log.console.filter((line) => line.startsWith('error:'))).toEqual([])
  })

  it('a refused attribute and diagnose(): the checks and debug files, through the same policy', async () => {
    const url = h.host.page('/', {
      csp: WITH_POLICY,
      html: widgetPage(h.service, { panel: false, attributes: { theme: 'neon' } }),
    })
    const context = await recordingPolicies()
    const { page, log } = await h.open(context)
    await page.goto(url)
    await waitForApi(page)
    const report = await page.evaluate(() =>
      (
        window as unknown as { Referral: { diagnose(): Promise<{ key: { mode: string } }> } }
      ).Referral.diagnose(),
    )
    expect(report.key.mode).toBe('test')
    expect(scriptsFetched()).toEqual([
      '/referral-widget.js',
      '/referral-widget-tracking.js',
      '/referral-widget-checks.js',
      '/referral-widget-debug.js',
    ])
    expect(await policiesOf(page)).toEqual(['referral-widget'])
    expect(log.cspViolations).toEqual([])
    // The checks file said what is wrong with the tag, and nothing else went wrong.
    expect(log.console.filter((line) => line.startsWith('error:'))).toEqual([
      'error: [referral] data-theme="neon" is ignored: use light, dark or auto.',
    ])
  })
})

describe('a page whose CSP allows no policy of the widget', () => {
  const cases = [
    { name: "trusted-types 'none'", csp: `${ENFORCED}; trusted-types 'none'`, locale: 'en-US' },
    {
      name: 'a trusted-types list without referral-widget, in German',
      csp: `${ENFORCED}; trusted-types site-policy other-library`,
      locale: 'de-DE',
    },
  ]
  it.each(cases)(
    '$name: tracking goes on, one message about the panel, nothing thrown',
    async ({ csp, locale }) => {
      const code = await h.linkCode('bob')
      const url = h.host.page('/', {
        csp,
        html: widgetPage(h.service, { banner: true, attributes: { locale } }),
      })
      const context = await recordingPolicies()
      const { page, log } = await h.open(context)
      await page.goto(`${url}?ref=${code}`)
      await waitForApi(page)

      // The arrival through bob's link and a signup reach the service and are counted.
      await callReferral(page, 'track', 'signup', { userId: 'carol' })
      await page.evaluate(() =>
        (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
      )
      await expect
        .poll(() => h.stats(), FAST)
        .toMatchObject({ totalClicks: 1, totalConversions: 1 })

      const ours = () => log.console.filter((line) => line.includes('[referral]'))
      await expect.poll(() => ours().length, FAST).toBeGreaterThan(0)
      await page.waitForLoadState('networkidle')
      expect(ours()).toEqual([
        "error: [referral] The panel cannot load under this page's Trusted Types policy: add `referral-widget` to the CSP's trusted-types directive.",
      ])
      expect(await page.locator(READY_ROOT).count()).toBe(0)
      // The tracking part came as a module (no Trusted Types sink); the page refused the UI
      // (and messages) file before any request.
      expect(scriptsFetched()).toEqual([
        '/referral-widget.js',
        '/referral-widget-tracking-delivery.js',
      ])
      // The widget asked for its policy once, and the page's refusal is all the CSP reported.
      expect(await policiesOf(page)).toEqual(['referral-widget'])
      expect(
        log.cspViolations.every((violation) =>
          /^(trusted-types|require-trusted-types-for) /.test(violation),
        ),
        log.cspViolations.join('\n'),
      ).toBe(true)
      // No uncaught error: checked for every test by the harness.
    },
  )
})
