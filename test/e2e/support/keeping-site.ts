// A site that records its sign-ups on its own server, for the tests of attribution kept past
// Safari's seven days: every page and POST /signup (recordSignup, with the attribution read from
// the Cookie header) go through docs/examples/server/keep-fetch.ts (keepAttribution on every
// response) where `keep` says so; and what Safari deletes after seven days without a visit.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import type { BrowserContext } from 'playwright-core'
import { afterEach } from 'vitest'
import { keepingReferrals } from '../../../docs/examples/server/keep-fetch.ts'
import { readAttribution, recordSignup } from '../../../src/server.ts'
import type { Harness } from './harness.ts'

/** Registers the clean-up; the returned function starts a site on loopback and gives its origin. */
export function useKeepingSites(h: Harness) {
  const closers: Array<() => void> = []
  afterEach(() => {
    for (const close of closers.splice(0)) close()
  })

  /** `pageOf(path)`: the HTML of each page; `keep`: keepAttribution on every response. */
  return async function startSite(pageOf: (path: string) => string, keep = true) {
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
      const html = pageOf(url.pathname)
      return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } })
    }
    const handler = keep ? keepingReferrals(site) : site
    const server = createServer(getRequestListener(handler, { overrideGlobalObjects: false }))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    closers.push(() => server.close())
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    h.allow(url)
    return url
  }
}

/** What Safari deletes after seven days without a visit: all that a script wrote. */
export async function sevenDaysInSafari(context: BrowserContext, site: string) {
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
