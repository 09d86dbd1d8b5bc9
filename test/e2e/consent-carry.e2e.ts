// No referral lost to a consent banner still open (data-consent="required"): the referral stays
// in the address bar, rides on the site's own links (ref_handoff=c1.…) while the visitor has not
// answered, and is recorded once, at its first capture time, where they consent; nothing is
// stored before, and nothing recorded or carried after a refusal.
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

/** A page of the shop with consent required, its links: one to the same site, one elsewhere. */
const shopPage = (path: string) =>
  h.host.page(path, {
    html: widgetPage(h.service, {
      panel: false,
      attributes: { consent: 'required' },
      after: `<a id="pricing" href="/pricing?plan=pro">Pricing</a>
<a id="elsewhere" href="https://other.test/">Elsewhere</a>`,
    }),
  })

const widgetKeys = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('referral:')))

/** A visitor's first page: through alice's link, consent not answered yet. */
async function arrive() {
  const code = await h.linkCode('alice')
  const landing = shopPage('/landing')
  shopPage('/pricing')
  const { page } = await h.open(await h.newContext())
  await page.goto(`${landing}?ref=${code}&utm_source=mail`)
  await waitForApi(page)
  const held = await heldOn(page)
  expect(held).toMatchObject({ code })
  return { code, landing, page, capturedAt: held?.capturedAt }
}

/**
 * What the page holds once its tracking part runs: the loader answers getAttribution() with null
 * until then, so this waits for a referral (or for the part, which flush() waits for).
 */
async function heldOn(page: Page) {
  await callReferral(page, 'flush')
  return (await callReferral(page, 'getAttribution')) as { code: string; capturedAt: string } | null
}

const clicks = async () => (await h.stats()).totalClicks

it('keeps the referral in the address bar, stores nothing, sends nothing; a reload, then consent: one click', async () => {
  const { code, landing, page } = await arrive()
  expect(page.url()).toBe(`${landing}?ref=${code}&utm_source=mail`)
  expect(await widgetKeys(page)).toEqual([])
  await page.reload()
  await waitForApi(page)
  expect(h.eventRequests()).toEqual([])
  await callReferral(page, 'consent', true)
  await expect.poll(clicks, FAST).toBe(1)
  await expect.poll(() => page.url(), FAST).toBe(`${landing}?utm_source=mail`)
  await callReferral(page, 'flush')
  expect(await clicks()).toBe(1)
})

it('a same-site link followed, consent on the second page: one click, captured on the first', async () => {
  const { code, page, capturedAt } = await arrive()
  await page.click('#pricing')
  await page.waitForURL(/\/pricing\?plan=pro&ref_handoff=c1\./)
  await waitForApi(page)
  expect(await widgetKeys(page)).toEqual([])
  expect(await heldOn(page)).toMatchObject({ code, capturedAt })
  expect(await clicks()).toBe(0)
  await callReferral(page, 'consent', true)
  await expect.poll(clicks, FAST).toBe(1)
  expect(await callReferral(page, 'getAttribution')).toMatchObject({ code, capturedAt })
  await expect.poll(() => new URL(page.url()).search, FAST).toBe('?plan=pro')
  expect(h.acceptedCounts().size).toBe(1)
})

it('consent refused on the second page: no click, a clean address bar, nothing carried on', async () => {
  const { page } = await arrive()
  await page.click('#pricing')
  await page.waitForURL(/ref_handoff=c1\./)
  await waitForApi(page)
  await callReferral(page, 'consent', false)
  await expect.poll(() => new URL(page.url()).search, FAST).toBe('?plan=pro')
  expect(await callReferral(page, 'getAttribution')).toBeNull()
  expect(await page.evaluate(() => Referral.decorate('/cart'))).toBe('/cart')
  await callReferral(page, 'flush')
  expect(await clicks()).toBe(0)
  expect(await widgetKeys(page)).toEqual([])
})

it('a link to another site gets no parameter; consent on the first page: one click, as before', async () => {
  const { landing, page } = await arrive()
  const elsewhere = await page.evaluate(() => {
    const link = document.getElementById('elsewhere') as HTMLAnchorElement
    // What the browser would navigate to: the link as it is when its click is handled.
    let seen = ''
    link.addEventListener('click', (event) => {
      seen = link.href
      event.preventDefault()
    })
    link.click()
    return seen
  })
  expect(elsewhere).toBe('https://other.test/')
  await callReferral(page, 'consent', true)
  await expect.poll(clicks, FAST).toBe(1)
  await expect.poll(() => page.url(), FAST).toBe(`${landing}?utm_source=mail`)
})

declare const Referral: { decorate(url: string): string }
