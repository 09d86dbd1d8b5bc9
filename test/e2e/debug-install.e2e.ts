// Debug mode's lines about the install and the road to the service, in Chromium, each brought
// about for real: a test key on a public host name, two tags, storage refused, the page's CSP
// leaving the service out of connect-src, a request blocked as an extension blocks it, offline,
// the referrer's own browser, a first-touch referral kept over a later one, one past its window.
import type { BrowserContext } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { FAST } from './support/harness.ts'
import { callReferral, waitForApi } from './support/in-page.ts'
import { useSiteNames } from './support/site-names.ts'
import { widgetPage } from './support/widget-page.ts'

const PUBLIC_HOST = 'www.shop-example.com'
const { h, on } = useSiteNames([PUBLIC_HOST])

const DAY = 24 * 60 * 60 * 1000
const DEBUG = { debug: '' }

const lines = (log: { console: string[] }) =>
  log.console
    .map((line) => line.replace(/^\w+: /, ''))
    .filter((line) => /^\[referral\] \w+:/.test(line))
const printed = (log: { console: string[] }, code: string) =>
  expect
    .poll(() => lines(log).find((line) => line.startsWith(`[referral] ${code}:`)), FAST)
    .toMatch(new RegExp(`^\\[referral\\] ${code}: .+ docs/TROUBLESHOOTING\\.md#${code}$`))

async function open(context: BrowserContext, url: string) {
  const opened = await h.open(context)
  await opened.page.goto(url)
  await waitForApi(opened.page)
  return opened
}
const page = (path: string, options: Parameters<typeof widgetPage>[1] = {}) =>
  h.host.page(path, { html: widgetPage(h.service, { panel: false, ...options }) })
const flush = (opened: { page: import('playwright-core').Page }) =>
  opened.page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )

describe('debug mode: the install', () => {
  it('a test key on a public host name', async () => {
    page('/', { attributes: DEBUG })
    const { log } = await open(await h.newContext(), on(PUBLIC_HOST, '/'))
    await printed(log, 'key_mode_mismatch')
    expect(lines(log).find((line) => line.includes('key_mode_mismatch'))).toContain(PUBLIC_HOST)
  })

  it('two script tags on one page', async () => {
    const src = `${h.service.url}/referral-widget.js`
    const url = page('/', {
      attributes: DEBUG,
      // The same tag pasted twice: whichever copy runs first does the work.
      after: `<script async src="${src}" data-key="pk_test_acme" data-debug></script>`,
    })
    const { log } = await open(await h.newContext(), url)
    await printed(log, 'duplicate_tag')
  })

  it('a cookie domain the browser refuses (a public suffix)', async () => {
    page('/', { attributes: { ...DEBUG, 'cookie-domain': 'com' } })
    const { log } = await open(await h.newContext(), on(PUBLIC_HOST, '/'))
    await printed(log, 'cookie_domain_refused')
  })

  it('storage refused', async () => {
    const context = await h.newContext()
    await context.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        get: () => {
          throw new DOMException('The operation is insecure.', 'SecurityError')
        },
      })
    })
    const { log } = await open(context, page('/', { attributes: DEBUG }))
    await printed(log, 'storage_unavailable')
  })
})

describe('debug mode: the road to the service', () => {
  it("the page's CSP leaves the service out of connect-src: the directive is named", async () => {
    const url = h.host.page('/', {
      html: widgetPage(h.service, { panel: false, attributes: DEBUG }),
      csp: `script-src ${h.service.url} 'unsafe-inline'; connect-src 'self'`,
    })
    const opened = await open(await h.newContext(), url)
    await callReferral(opened.page, 'track', 'signup', { userId: 'csp-user' })
    await flush(opened)
    await printed(opened.log, 'blocked_by_csp')
    expect(lines(opened.log).find((line) => line.includes('blocked_by_csp'))).toContain(
      'connect-src',
    )
    // diagnose() asks the service again, and judges every failure with the CSP's word on it.
    const report = (await callReferral(opened.page, 'diagnose')) as {
      service: { problem: string }
      decisions: Array<{ code: string }>
    }
    expect(report.service.problem).toMatch(/refused by the page's CSP \(connect-src\)/)
    expect(report.decisions.map((decision) => decision.code)).not.toContain('blocked_by_client')
  })

  it('a request blocked as an extension blocks it, while online', async () => {
    const context = await h.newContext()
    await context.route('**/v1/events', (route) => route.abort('blockedbyclient'))
    const opened = await open(context, page('/', { attributes: DEBUG }))
    await callReferral(opened.page, 'track', 'signup', { userId: 'blocked-user' })
    await flush(opened)
    await printed(opened.log, 'blocked_by_client')
  })

  it('offline: events wait', async () => {
    const context = await h.newContext()
    const opened = await open(context, page('/', { attributes: DEBUG }))
    await context.setOffline(true)
    await callReferral(opened.page, 'track', 'signup', { userId: 'offline-user' })
    await printed(opened.log, 'offline')
    await context.setOffline(false)
  })
})

describe('debug mode: the arrival', () => {
  it("the referrer's own browser: their link credits no one", async () => {
    const context = await h.newContext()
    const account = page('/account', { panel: true, attributes: { 'user-id': 'alice' } })
    const owner = await open(context, account)
    const code = await callReferral(owner.page, 'getLink').then(
      (link) => (link as { code: string }).code,
    )
    const { log } = await open(context, `${page('/', { attributes: DEBUG })}?ref=${code}`)
    await printed(log, 'self_referral')
  })

  it('first touch keeps the first referral; one past its window is let go', async () => {
    const [alice, bob] = [await h.linkCode('alice'), await h.linkCode('bob')]
    const context = await h.newContext()
    const url = page('/', { attributes: { ...DEBUG, attribution: 'first' } })
    await open(context, `${url}?ref=${alice}`)
    const second = await open(context, `${url}?ref=${bob}`)
    await printed(second.log, 'referral_kept_first')

    await context.clock.install({ time: Date.now() + 400 * DAY })
    const later = await open(context, page('/later', { attributes: DEBUG }))
    await printed(later.log, 'referral_expired')
  })
})
