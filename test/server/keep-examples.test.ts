// The one line docs/SERVER.md shows for each server, run as a site would run it: a request that
// carries the widget's cookie gets the server's own cookie back (Set-Cookie), beside whatever the
// site's route set; a request without one gets nothing added.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { NextRequest } from 'next/server'
import { describe, expect, it } from 'vitest'
import { proxy } from '../../docs/examples/next/proxy.ts'
import { app as expressApp } from '../../docs/examples/server/keep-express.ts'
import { app as honoApp } from '../../docs/examples/server/keep-hono.ts'
import { ATTRIBUTION_COOKIE, encodeAttribution } from '../../src/api/attribution-cookie.ts'
import { KEPT_COOKIE, KEPT_COOKIE_INSECURE } from '../../src/server/keep-attribution.ts'

const CAPTURED = Date.now() - 60_000
const WIDGET_COOKIE = `${ATTRIBUTION_COOKIE}=${encodeAttribution(
  { code: 'AbC123xy', visitorId: 'v_visitor_0001', capturedAt: new Date(CAPTURED).toISOString() },
  { windowDays: 60, firstTouch: false },
)}; theme=dark`

/** The server's own cookie among the response's Set-Cookie headers: its name and Max-Age. */
function kept(setCookies: string[], name: string) {
  const cookie = setCookies.find((line) => line.startsWith(`${name}=`))
  if (cookie === undefined) return undefined
  return { maxAge: Number(/Max-Age=(\d+)/.exec(cookie)?.[1]), httpOnly: /HttpOnly/.test(cookie) }
}
const sixtyDays = 60 * 24 * 60 * 60

describe('keepAttribution in each server docs/SERVER.md shows', () => {
  it("Hono: one middleware, beside the route's own cookies", async () => {
    honoApp.get('/', (c) => {
      c.header('Set-Cookie', 'session=abc', { append: true })
      return c.text('home')
    })
    const response = await honoApp.request('https://shop.example/', {
      headers: { cookie: WIDGET_COOKIE },
    })
    const cookies = response.headers.getSetCookie()
    expect(cookies).toContain('session=abc')
    expect(kept(cookies, KEPT_COOKIE)).toEqual({ maxAge: expect.any(Number), httpOnly: true })
    expect(kept(cookies, KEPT_COOKIE)?.maxAge).toBeGreaterThan(sixtyDays - 120)
    const none = await honoApp.request('https://shop.example/')
    expect(none.headers.getSetCookie()).toEqual(['session=abc'])
  })

  it('Express: one middleware (plain http in development: the cookie without Secure)', async () => {
    expressApp.get('/', (_request, response) => {
      response.append('Set-Cookie', 'session=abc')
      response.send('home')
    })
    const server = createServer(expressApp)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
      const response = await fetch(base, { headers: { cookie: WIDGET_COOKIE } })
      const cookies = response.headers.getSetCookie()
      expect(cookies).toContain('session=abc')
      expect(kept(cookies, KEPT_COOKIE_INSECURE)?.httpOnly).toBe(true)
      const none = await fetch(base)
      expect(none.headers.getSetCookie()).toEqual(['session=abc'])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('Next.js: the proxy (middleware) passes the request on with the cookie set', () => {
    const response = proxy(
      new NextRequest('https://shop.example/account', { headers: { cookie: WIDGET_COOKIE } }),
    )
    expect(response.headers.get('x-middleware-next')).toBe('1')
    expect(kept(response.headers.getSetCookie(), KEPT_COOKIE)?.maxAge).toBeGreaterThan(
      sixtyDays - 120,
    )
    const none = proxy(new NextRequest('https://shop.example/account'))
    expect(none.headers.getSetCookie()).toEqual([])
  })
})
