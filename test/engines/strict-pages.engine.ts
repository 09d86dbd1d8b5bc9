// Two kinds of site the widget must work in, in each engine: a strict CSP with nonces, as a
// Next.js or Rails site sends it (`script-src 'nonce-…'`, no 'strict-dynamic': every file the
// loader adds carries its tag's nonce), and a page that changes without a reload (Turbo, htmx:
// the next body swapped in, its scripts run again, history.pushState), where a panel that comes
// with the new body is mounted and one on both bodies comes back.
import { expect, it } from 'vitest'
import { STUB } from '../e2e/support/widget-page.ts'
import { useEngine } from './support/harness.ts'
import {
  apiLoaded,
  bannerText,
  call,
  enginePage,
  panel,
  RECORDER_NONCE,
} from './support/in-page.ts'

const h = useEngine()

it("under script-src 'nonce-…' alone: the tracking, UI and messages files load, nothing refused", async () => {
  const code = await h.linkCode('bob')
  const service = h.service.url
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${RECORDER_NONCE}'`,
    "style-src 'self'",
    "img-src 'self'",
    `connect-src ${service}`,
  ].join('; ')
  const url = h.host.page('/', {
    csp,
    html: enginePage(h.service, {
      banner: true,
      attributes: { 'user-id': 'alice', locale: 'fr-FR' },
      scriptAttributes: ` nonce="${RECORDER_NONCE}"`,
    }),
  })
  const tab = await h.visit(`${url}?ref=${code}`)
  await expect.poll(() => h.stats()).toMatchObject({ totalClicks: 1 })
  await expect
    .poll(() => panel(tab))
    .toMatchObject({ state: 'ready', link: expect.stringMatching(/\?ref=/) })
  await expect.poll(() => bannerText(tab)).toMatch(/10/)
  // The French messages came from their own file, under the same nonce.
  const copy = await tab.evaluate(
    () =>
      document
        .querySelector('[data-referral-widget]')
        ?.shadowRoot?.querySelector('[data-part="copy"]')?.textContent ?? null,
  )
  expect(copy).toMatch(/Copier/)
  expect(await tab.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([])
})

it('a page whose body is swapped without a reload: a panel that comes is mounted, and comes back', async () => {
  const site = (path: string, panelShown: boolean) =>
    h.host.page(path, {
      html: enginePage(h.service, {
        panel: panelShown,
        attributes: { 'user-id': 'alice' },
        before: `<script>${STUB}</script>`,
      }),
    })
  const home = site('/', false)
  site('/account', true)
  site('/settings', true)
  const tab = await h.visit(home)
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  const swapTo = (path: string) =>
    tab.evaluate(async (next) => {
      const html = await (await fetch(next)).text()
      const body = new DOMParser().parseFromString(html, 'text/html').body
      document.body.replaceWith(document.adoptNode(body))
      for (const old of Array.from(document.body.querySelectorAll('script'))) {
        const fresh = document.createElement('script')
        for (const { name, value } of Array.from(old.attributes)) fresh.setAttribute(name, value)
        fresh.text = old.text
        old.replaceWith(fresh)
      }
      history.pushState({}, '', next)
      return null
    }, path)

  await swapTo('/account')
  await expect
    .poll(() => panel(tab))
    .toMatchObject({ state: 'ready', link: expect.stringMatching(/\?ref=/) })
  await swapTo('/settings')
  await expect
    .poll(() => panel(tab))
    .toMatchObject({ state: 'ready', link: expect.stringMatching(/\?ref=/) })
  expect(await tab.evaluate(() => document.querySelectorAll('[data-referral-widget]').length)).toBe(
    1,
  )
  expect(await call(tab, 'queueSize')).toBe(0)
})
