// The widget as a guest in each engine (WIDGET.md section 9): a page locked down by a strict CSP,
// with Trusted Types required where the engine has them, and a hostile page (a polluted
// Object.prototype, Prototype.js's Array.prototype.toJSON). The service is the judge: every event
// accepted exactly once, and nothing thrown into the page.
import { expect, it } from 'vitest'
import { useEngine } from './support/harness.ts'
import { bannerText, call, enginePage, panel, RECORDER_NONCE } from './support/in-page.ts'

const h = useEngine()

it('works under a strict CSP that requires Trusted Types, with no violation', async () => {
  const code = await h.linkCode('bob')
  const service = h.service.url
  const csp = [
    "default-src 'none'",
    `script-src ${service} 'nonce-${RECORDER_NONCE}'`,
    "style-src 'self'",
    "img-src 'self'", // the page's own favicon
    `connect-src ${service}`,
    "require-trusted-types-for 'script'",
    'trusted-types referral-widget',
  ].join('; ')
  h.host.page('/site.css', { html: 'body { margin: 2rem; }', type: 'text/css' })
  const url = h.host.page('/', {
    csp,
    html: enginePage(h.service, {
      banner: true,
      head: '<link rel="stylesheet" href="/site.css">',
      attributes: { 'user-id': 'alice' },
    }),
  })
  const tab = await h.visit(`${url}?ref=${code}`)
  await expect
    .poll(() => panel(tab))
    .toMatchObject({ state: 'ready', link: expect.stringMatching(/\?ref=/) })
  await expect.poll(() => bannerText(tab)).toMatch(/\$10/)
  await expect.poll(() => h.stats()).toMatchObject({ totalClicks: 1 })
  // The widget's own styles applied: constructable stylesheets need no style-src exception.
  const padding = await tab.evaluate(() => {
    const root = document
      .querySelector('[data-referral-widget]')
      ?.shadowRoot?.querySelector('[data-part="root"]')
    return root ? getComputedStyle(root).paddingTop : null
  })
  expect(padding).toBe('16px')
  expect(await tab.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([])
})

it('in a hostile page (polluted Object.prototype, Array.prototype.toJSON) records the click and the sign-ups once each, and shows the panel', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/', {
    html: enginePage(h.service, {
      // A friend of alice's, in their own browser, whose panel shows their own link.
      attributes: { 'user-id': 'dave' },
      before: `<script>
Object.prototype.polluted = 'yes';
Array.prototype.toJSON = function () { return '[' + this.map(function (item) { return JSON.stringify(item) }).join(',') + ']' };
window.Referral = window.Referral || function () { (Referral.q = Referral.q || []).push(arguments) };
['ann', 'ben', 'cid'].forEach(function (userId) { Referral('track', 'signup', { userId: userId }) });
</script>`,
    }),
  })
  const tab = await h.visit(`${url}?ref=${code}`)
  await expect.poll(() => h.acceptedCounts().size).toBe(4)
  expect([...h.acceptedCounts().values()]).toEqual([1, 1, 1, 1])
  expect(await h.stats()).toMatchObject({ totalClicks: 1, totalConversions: 3 })
  await expect
    .poll(() => panel(tab))
    .toMatchObject({ state: 'ready', link: expect.stringMatching(/\?ref=/) })
  // The service counts each event before the page has read its answer: wait for the page.
  await expect.poll(() => call(tab, 'queueSize')).toBe(0)
})
