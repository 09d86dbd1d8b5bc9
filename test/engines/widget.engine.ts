// The widget's everyday promises in each engine: the referrer's panel, a visitor's arrival through
// a link (one click, a clean address bar, the banner), and that visitor's sign-up converting.
import { expect, it } from 'vitest'
import { useEngine } from './support/harness.ts'
import { address, apiLoaded, bannerText, call, enginePage, panel } from './support/in-page.ts'

const h = useEngine()

it('shows the panel ready for an identified user, with the share link', async () => {
  const url = h.host.page('/', {
    html: enginePage(h.service, { attributes: { 'user-id': 'alice' } }),
  })
  const tab = await h.visit(url)
  const code = await h.linkCode('alice')
  await expect
    .poll(() => panel(tab))
    .toEqual({ state: 'ready', link: `${h.host.url}/?ref=${code}` })
})

it('counts an arrival through a link once, cleans the address bar and shows the banner; a reload counts nothing more', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/landing', {
    html: enginePage(h.service, { panel: false, banner: true }),
  })
  const tab = await h.visit(`${url}?ref=${code}&utm_source=mail`)
  await expect.poll(() => h.stats()).toMatchObject({ totalClicks: 1 })
  expect(await address(tab)).toBe(`${url}?utm_source=mail`)
  await expect.poll(() => bannerText(tab)).toMatch(/\$10/)

  await tab.reload()
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  await call(tab, 'flush')
  expect(await call(tab, 'getAttribution')).toMatchObject({ code })
  expect((await h.stats()).totalClicks).toBe(1)
  expect(h.acceptedCounts().size).toBe(1)
})

it("converts the referred visitor's sign-up, rewarding both sides", async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/signup', { html: enginePage(h.service, { panel: false }) })
  const tab = await h.visit(`${url}?ref=${code}`)
  await expect.poll(() => h.stats()).toMatchObject({ totalClicks: 1 })
  await call(tab, 'track', 'signup', { userId: 'new-friend' })
  await expect
    .poll(() => h.stats())
    .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  await expect.poll(() => call(tab, 'queueSize')).toBe(0)
})
