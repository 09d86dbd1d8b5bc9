// A referral waiting for the visitor's consent in each engine (data-consent="required"): it stays
// in the address bar and rides on the site's own links until they answer, then counts once.
import { expect, it } from 'vitest'
import { useEngine } from './support/harness.ts'
import { address, apiLoaded, call, enginePage } from './support/in-page.ts'

const h = useEngine()

const shopPage = (path: string) =>
  h.host.page(path, {
    html: enginePage(h.service, {
      panel: false,
      attributes: { consent: 'required' },
      after: '<a id="pricing" href="/pricing?plan=pro">Pricing</a>',
    }),
  })

/** A visitor's first page: through alice's link, consent not answered yet. */
async function arrive() {
  const code = await h.linkCode('alice')
  const landing = shopPage('/landing')
  shopPage('/pricing')
  const tab = await h.visit(`${landing}?ref=${code}`)
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  return { code, landing, tab }
}

it('keeps a referral through a reload and a same-site link until consent, then counts one click captured on arrival', async () => {
  const { code, landing, tab } = await arrive()
  // Held once the tracking part runs (the loader answers null until then).
  const held = () => call(tab, 'getAttribution') as Promise<{ capturedAt: string } | null>
  await expect.poll(held).toMatchObject({ code })
  const capturedAt = (await held())?.capturedAt ?? ''
  await tab.reload()
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  expect(await address(tab)).toBe(`${landing}?ref=${code}`)
  const stored = () =>
    tab.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('referral:')))
  expect(await stored()).toEqual([])

  await tab.evaluate(() => document.getElementById('pricing')?.click())
  await expect.poll(() => address(tab)).toMatch(/\/pricing\?plan=pro&ref_handoff=c1\./)
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  expect(await stored()).toEqual([])
  await expect.poll(held).toMatchObject({ code })
  expect((await h.stats()).totalClicks).toBe(0)

  await call(tab, 'consent', true)
  await expect.poll(() => h.stats()).toMatchObject({ totalClicks: 1 })
  await expect.poll(() => address(tab)).toMatch(/\/pricing\?plan=pro$/)
  // The reload captured it again; the link carried that capture, and no other click was made.
  expect(Date.parse((await held())?.capturedAt ?? '')).toBeGreaterThanOrEqual(
    Date.parse(capturedAt),
  )
  await call(tab, 'flush')
  expect(h.acceptedCounts().size).toBe(1)
})

it('refused on the next page: no click, a clean address bar, nothing carried on', async () => {
  const { tab } = await arrive()
  await tab.evaluate(() => document.getElementById('pricing')?.click())
  await expect.poll(() => address(tab)).toMatch(/ref_handoff=c1\./)
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  await call(tab, 'consent', false)
  await expect.poll(() => address(tab)).toMatch(/\/pricing\?plan=pro$/)
  expect(await call(tab, 'getAttribution')).toBeNull()
  expect(await call(tab, 'decorate', '/cart')).toBe('/cart')
  await call(tab, 'flush')
  expect((await h.stats()).totalClicks).toBe(0)
})
