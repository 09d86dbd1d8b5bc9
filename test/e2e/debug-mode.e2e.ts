// Debug mode through the script tag, in Chromium: how it is switched on (data-debug, the stub's
// Referral('debug', true), referral_debug=1 for the tab's session), that the debug file comes only
// then, and each decision's line brought about for real: no referral in the address, a referral
// captured and accepted, a sign-up without a referral, an unknown code, a paused campaign, consent
// pending and refused, Global Privacy Control. diagnose() answers a plain report.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { encodeHandoff } from '../../src/api/handoff.ts'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

/** The `[referral] <code>:` lines the page printed. */
const lines = (log: { console: string[] }) =>
  log.console
    .map((line) => line.replace(/^\w+: /, ''))
    .filter((line) => /^\[referral\] \w+:/.test(line))
const codes = (log: { console: string[] }) =>
  lines(log).map((line) => /^\[referral\] (\w+):/.exec(line)?.[1])
const printed = (log: { console: string[] }, code: string) =>
  expect
    .poll(() => lines(log).find((line) => line.startsWith(`[referral] ${code}:`)), FAST)
    .toMatch(new RegExp(`^\\[referral\\] ${code}: .+ docs/TROUBLESHOOTING\\.md#`))

async function visit(path: string, search = '', options: Parameters<typeof widgetPage>[1] = {}) {
  const url = h.host.page(path, { html: widgetPage(h.service, { panel: false, ...options }) })
  const opened = await h.open(await h.newContext())
  await opened.page.goto(`${url}${search}`)
  await waitForApi(opened.page)
  return { ...opened, url }
}

const track = (page: Page, type: string, properties: object) =>
  callReferral(page, 'track', type, properties)
const flush = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )

describe('debug mode through the script tag', () => {
  it('data-debug on a quiet page: the debug file comes, and says the address carried no referral', async () => {
    const { log } = await visit('/', '', { attributes: { debug: '' } })
    await printed(log, 'no_referral')
    expect(log.requests.some((url) => url.endsWith('/referral-widget-debug.js'))).toBe(true)
  })

  it('off: the debug file never comes and no decision is printed, whatever happens', async () => {
    const code = await h.linkCode('alice')
    const { page, log } = await visit('/', `?ref=${code}`)
    await track(page, 'signup', { userId: 'no-debug' })
    await flush(page)
    await expect.poll(() => h.eventRequests().length, FAST).toBeGreaterThan(0)
    expect(codes(log)).toEqual([])
    expect(log.requests.some((url) => url.includes('referral-widget-debug'))).toBe(false)
  })

  it('an arrival through a link: captured, and the click accepted', async () => {
    const code = await h.linkCode('alice')
    const { page, log } = await visit('/', `?ref=${code}`, { attributes: { debug: 'true' } })
    await printed(log, 'referral_captured')
    await flush(page)
    await printed(log, 'accepted')
    expect(lines(log).find((line) => line.includes('referral_captured'))).toContain(code)
  })

  it("Referral('debug', true) from the stub, before the script loads; a sign-up without a referral", async () => {
    const url = h.host.page('/welcome', {
      html: widgetPage(h.service, {
        panel: false,
        before: `<script>window.Referral=window.Referral||function(){(Referral.q=Referral.q||[]).push(arguments)};Referral('debug', true);Referral('track','signup',{userId:'stub-user'})</script>`,
      }),
    })
    const { page, log } = await h.open(await h.newContext())
    await page.goto(url)
    await printed(log, 'signup_without_referral')
    expect(lines(log).find((line) => line.includes('signup_without_referral'))).toContain(
      'stub-user',
    )
  })

  it('referral_debug=1 lasts for the tab, in sessionStorage only; referral_debug=0 ends it', async () => {
    const { page, log, url } = await visit('/', '?referral_debug=1')
    await printed(log, 'no_referral')
    expect(await page.evaluate(() => sessionStorage.getItem('referral_debug'))).toBe('1')
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('referral_debug')
    await page.goto(`${url}?page=2`)
    await waitForApi(page)
    await track(page, 'signup', { userId: 'second-page' })
    await printed(log, 'signup_without_referral')
    await page.goto(`${url}?referral_debug=0`)
    await waitForApi(page)
    expect(await page.evaluate(() => sessionStorage.getItem('referral_debug'))).toBeNull()
  })

  it("passes the service's verdicts through: an unknown code, then a paused campaign", async () => {
    const { page, log } = await visit('/', '', { attributes: { debug: '' } })
    await track(page, 'click', { code: 'ZZZZZZZZ' })
    await flush(page)
    await printed(log, 'unknown_code')
    const code = await h.linkCode('bob')
    await h.admin('PATCH', '/v1/campaigns/camp_acmeFriendsAndFamily', { status: 'paused' })
    await track(page, 'click', { code })
    await flush(page)
    await printed(log, 'campaign_not_active')
  })

  it('a 429, with the time of the next try', async () => {
    const { page, log } = await visit('/', '', { attributes: { debug: '' } })
    h.service.service.faults.set({ kind: 'rate-limit', count: 1, retryAfterSeconds: 30 })
    await track(page, 'signup', { userId: 'limited' })
    await printed(log, 'rate_limited')
    expect(lines(log).find((line) => line.includes('rate_limited'))).toMatch(
      /next try is at \d{4}-/,
    )
  })

  it('the service failing: events wait and are tried again', async () => {
    const { page, log } = await visit('/', '', { attributes: { debug: '' } })
    h.service.service.faults.set({ kind: 'unavailable', count: 1 })
    await track(page, 'signup', { userId: 'failing' })
    await printed(log, 'service_error')
  })

  it('a stale hand-off in the address is refused', async () => {
    const code = await h.linkCode('alice')
    const old = Date.now() - 3 * 60 * 60 * 1000
    const handoff = encodeHandoff({
      code,
      visitorId: 'v_0123456789abcdefghij',
      capturedAt: old,
      handoffAt: old,
    })
    const { log } = await visit('/', `?ref_handoff=${handoff}`, { attributes: { debug: '' } })
    await printed(log, 'handoff_refused')
  })

  it('consent pending, then refused; Global Privacy Control honoured', async () => {
    const code = await h.linkCode('alice')
    const waiting = await visit('/', `?ref=${code}`, {
      attributes: { debug: '', consent: 'required' },
    })
    await printed(waiting.log, 'consent_pending')
    await callReferral(waiting.page, 'consent', false)
    await printed(waiting.log, 'consent_refused')

    const context = await h.newContext()
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })
    })
    const url = h.host.page('/gpc', {
      html: widgetPage(h.service, { panel: false, attributes: { debug: '', 'honor-gpc': '' } }),
    })
    const { page, log } = await h.open(context)
    await page.goto(`${url}?ref=${code}`)
    await printed(log, 'gpc')
  })

  it('diagnose() before the script loads answers a plain report of the install', async () => {
    const code = await h.linkCode('alice')
    const { page } = await visit('/', `?ref=${code}`)
    const report = (await page.evaluate(() =>
      (window as unknown as { Referral: (name: string) => Promise<unknown> }).Referral('diagnose'),
    )) as Record<string, Record<string, unknown>>
    expect(report.key).toMatchObject({ mode: 'test', matchesHost: true })
    expect(report.service).toMatchObject({ reachable: true, status: 200 })
    expect(report.campaign).toMatchObject({ active: true })
    expect(report.storage).toMatchObject({ localStorage: 'ok' })
    expect(report.referral).toMatchObject({ code, keptIn: ['storage'] })
  })
})
