// The widget under a strict CSP with nonces, as a Next.js or Rails site sends it: `script-src
// 'nonce-…'` (in the header or a <meta>), no 'strict-dynamic', the widget's tag carrying the
// nonce. Every file the loader adds (the tracking part, delivery, UI, messages, QR, link, cookie,
// outbound, checks) carries the tag's nonce, so nothing is refused; with 'strict-dynamic', and
// with the script's origin allowed instead, it works as before. A file that cannot load is named
// as the one asked for.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { FAST, type Harness, useHarness } from './support/harness.ts'
import { callReferral, READY_ROOT, waitForApi } from './support/in-page.ts'
import { STUB, widgetPage } from './support/widget-page.ts'

const h = useHarness()
const NONCE = 'r4nd0mN0nce'

/** The policy: scripts by nonce only (or as `scripts` says), the service for requests. */
const policy = (service: string, scripts = `'nonce-${NONCE}'`) =>
  `default-src 'none'; script-src ${scripts}; style-src 'self'; img-src 'self'; connect-src ${service}`

type Delivery = 'header' | 'meta'

/** A host page under `csp`, its tag (and its stub) carrying the nonce. */
function noncePage(
  h: Harness,
  path: string,
  csp: string,
  delivery: Delivery,
  options: Parameters<typeof widgetPage>[1] = {},
) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${csp}">`
  return h.host.page(path, {
    ...(delivery === 'header' ? { csp } : {}),
    html: widgetPage(h.service, {
      ...options,
      head: `${delivery === 'meta' ? meta : ''}${options.head ?? ''}`,
      before: `<script nonce="${NONCE}">${STUB}</script>${options.before ?? ''}`,
      scriptAttributes: ` nonce="${NONCE}"${options.scriptAttributes ?? ''}`,
    }),
  })
}

const filesServed = () =>
  h.service.requests.map((request) => request.path).filter((path) => path.endsWith('.js'))

/** Nothing refused: no violation, no console line about the policy. */
function expectNothingRefused(log: { cspViolations: string[]; console: string[] }) {
  expect(log.cspViolations).toEqual([])
  expect(
    log.console.filter((line) => /Content Security Policy|Refused|\[referral\]/.test(line)),
  ).toEqual([])
}

/** An arrival through bob's link on a panel page in French, the QR code opened. */
async function arriveAndOpenQr(page: Page) {
  await page.locator(READY_ROOT).waitFor()
  await page.locator('[data-part="banner"]').waitFor()
  await page.locator('[data-part="link"]').waitFor()
  await page.locator('[data-network="qr"]').click()
  await page.locator('[data-part="qr"][open] [data-part="qr-code"]').waitFor()
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })
}

describe.each<Delivery>(['header', 'meta'])(
  'script-src with a nonce only, in the %s',
  (delivery) => {
    it('an arrival on a French panel page: tracking, UI, messages and QR files all run', async () => {
      const code = await h.linkCode('bob')
      const url = noncePage(h, '/', policy(h.service.url), delivery, {
        banner: true,
        attributes: { 'user-id': 'alice', locale: 'fr-FR' },
      })
      const { page, log } = await h.open(await h.newContext({ locale: 'fr-FR' }))
      await page.goto(`${url}?ref=${code}`)
      await arriveAndOpenQr(page)
      expect(await page.locator('[data-part="copy"]').textContent()).toMatch(/Copier/)
      expect(new Set(filesServed())).toEqual(
        new Set([
          '/referral-widget.js',
          '/referral-widget-tracking-delivery.js',
          '/referral-widget-ui.js',
          '/referral-widget-messages-fr.js',
          '/referral-widget-qr.js',
        ]),
      )
      expectNothingRefused(log)
    })

    it('the cookie, outbound and checks files, then the link and delivery files', async () => {
      const url = noncePage(h, '/', policy(h.service.url), delivery, {
        panel: false,
        // A theme the widget refuses brings the checks file, which says what is wrong.
        attributes: {
          'user-id': 'alice',
          'cookie-domain': '127.0.0.1',
          outbound: 'app.example',
          theme: 'neon',
        },
      })
      const { page, log } = await h.open(await h.newContext())
      await page.goto(url)
      await waitForApi(page)
      const link = (await page.evaluate(() =>
        (
          window as unknown as { Referral: { getLink(): Promise<{ url: string }> } }
        ).Referral.getLink(),
      )) as { url: string }
      expect(link.url).toMatch(/\?ref=/)
      expect(await callReferral(page, 'track', 'signup', { userId: 'carol' })).toBe(true)
      await callReferral(page, 'flush')
      expect(h.acceptedCounts().size).toBe(1)
      expect(new Set(filesServed())).toEqual(
        new Set([
          '/referral-widget.js',
          '/referral-widget-tracking.js',
          '/referral-widget-checks.js',
          '/referral-widget-cookie.js',
          '/referral-widget-outbound.js',
          '/referral-widget-link.js',
          '/referral-widget-delivery.js',
        ]),
      )
      expect(log.cspViolations).toEqual([])
      // The refused theme is said, and nothing else.
      expect(log.console.filter((line) => line.includes('[referral]'))).toEqual([
        'error: [referral] data-theme="neon" is ignored: use light, dark or auto.',
      ])
    })
  },
)

it("with 'strict-dynamic' beside the nonce it works as before", async () => {
  const code = await h.linkCode('bob')
  const scripts = `'nonce-${NONCE}' 'strict-dynamic'`
  const url = noncePage(h, '/', policy(h.service.url, scripts), 'header', {
    banner: true,
    attributes: { 'user-id': 'alice', locale: 'fr-FR' },
  })
  const { page, log } = await h.open(await h.newContext({ locale: 'fr-FR' }))
  await page.goto(`${url}?ref=${code}`)
  await arriveAndOpenQr(page)
  expectNothingRefused(log)
})

it('with the script’s origin allowed and no nonce on the tag it works as before', async () => {
  const code = await h.linkCode('bob')
  const csp = policy(h.service.url, h.service.url)
  const url = h.host.page('/', {
    csp,
    html: widgetPage(h.service, { banner: true, attributes: { 'user-id': 'alice' } }),
  })
  const { page, log } = await h.open(await h.newContext())
  await page.goto(`${url}?ref=${code}`)
  await arriveAndOpenQr(page)
  expectNothingRefused(log)
})

it('a tracking part that cannot load is named as the file asked for', async () => {
  const code = await h.linkCode('bob')
  const url = noncePage(h, '/', policy(h.service.url), 'header', { panel: false })
  const context = await h.newContext()
  await context.route('**/referral-widget-tracking-delivery.js', (route) => route.abort())
  const { page, log } = await h.open(context)
  await page.goto(`${url}?ref=${code}`)
  await expect
    .poll(() => log.console.filter((line) => line.includes('[referral]')), FAST)
    .toEqual([
      'error: [referral] The widget could not be loaded from referral-widget-tracking-delivery.js beside the script.',
    ])
})
