// Attribution kept past Safari's seven days by the site's own server: a site whose pages and
// sign-up route go through docs/examples/server/keep-fetch.ts (keepAttribution on every response).
// A visitor arrives through a link, sees one more page, and then loses everything a script wrote
// (every cookie that is not HttpOnly, localStorage, sessionStorage), as Safari does after seven
// days without a visit: the sign-up the server records still converts. Without keepAttribution,
// the same visit converts nothing.

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import type { BrowserContext } from 'playwright-core'
import { afterEach, expect, it } from 'vitest'
import { keepingReferrals } from '../../docs/examples/server/keep-fetch.ts'
import { readAttribution, recordSignup } from '../../src/server.ts'
import { FAST, useHarness } from './support/harness.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()
const closers: Array<() => void> = []
afterEach(() => {
  for (const close of closers.splice(0)) close()
})

/** The site: its pages carry the tag (data-cookie-domain="auto"); POST /signup records a sign-up. */
async function startSite(keep: boolean) {
  const page = widgetPage(h.service, { panel: false, attributes: { 'cookie-domain': 'auto' } })
  const site = async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    if (request.method === 'POST' && url.pathname === '/signup') {
      const { userId } = (await request.json()) as { userId: string }
      const result = await recordSignup({
        secretKey: 'sk_test_acme',
        apiBase: h.service.url,
        userId,
        attribution: readAttribution(request.headers.get('cookie')),
      })
      return Response.json(result)
    }
    return new Response(page, { headers: { 'Content-Type': 'text/html; charset=utf-8' } })
  }
  const handler = keep ? keepingReferrals(site) : site
  const server = createServer(getRequestListener(handler, { overrideGlobalObjects: false }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => server.close())
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  h.allow(url)
  return url
}

/** What Safari deletes after seven days without a visit: all that a script wrote. */
async function sevenDaysInSafari(context: BrowserContext, site: string) {
  for (const cookie of await context.cookies())
    if (!cookie.httpOnly) await context.clearCookies({ name: cookie.name })
  const page = await context.newPage()
  await page.goto(`${site}/blank`)
  await page.evaluate(() => {
    localStorage.clear()
    sessionStorage.clear()
  })
  await page.close()
}

/** An arrival through alice's link, one more page, Safari's deletion, then a sign-up. */
async function visit(site: string) {
  const code = await h.linkCode('alice')
  const context = await h.newContext()
  const { page } = await h.open(context)
  await page.goto(`${site}/?ref=${code}`)
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })
  await page.goto(`${site}/pricing`) // the next request carries the widget's cookie
  const before = (await context.cookies()).map(({ name, httpOnly }) => ({ name, httpOnly }))
  await sevenDaysInSafari(context, site)
  const after = (await context.cookies()).map(({ name, httpOnly }) => ({ name, httpOnly }))
  await page.goto(`${site}/welcome`)
  const result = await page.evaluate(async () => {
    const answer = await fetch('/signup', { method: 'POST', body: '{"userId":"carol"}' })
    return answer.json()
  })
  return { before, after, result }
}

it('with keepAttribution: the HttpOnly cookie outlives the deletion, the sign-up converts', async () => {
  const { before, after, result } = await visit(await startSite(true))
  expect(before).toEqual(
    expect.arrayContaining([
      { name: 'referral_attribution', httpOnly: false },
      { name: 'referral_kept', httpOnly: true },
    ]),
  )
  expect(after).toEqual([{ name: 'referral_kept', httpOnly: true }])
  expect(result).toMatchObject({ status: 'accepted' })
  expect(await h.stats()).toMatchObject({ totalClicks: 1, totalConversions: 1 })
})

it('without it: the same visit converts nothing', async () => {
  const { after, result } = await visit(await startSite(false))
  expect(after).toEqual([])
  expect(result).toMatchObject({ status: 'accepted' })
  expect(await h.stats()).toMatchObject({ totalClicks: 1, totalConversions: 0 })
})
