// data-attribution="first" in Chromium: a visitor arrives through alice's link, then through
// bob's; both clicks are counted, and the sign-up is alice's conversion, not bob's.
import { describe, expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, waitForApi } from './support/in-page.ts'
import { flush } from './support/site-names.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

/** What the service credits to a link: its clicks and conversions. */
async function credited(code: string) {
  const { body } = await h.admin('GET', `/v1/links/${code}/summary`)
  const { clicks, conversions } = body as { clicks: number; conversions: number }
  return { clicks, conversions }
}

async function arriveTwiceThenSignUp(attribution: 'first' | 'last') {
  const alice = await h.linkCode('alice')
  const bob = await h.linkCode('bob')
  const html = widgetPage(h.service, { panel: false, attributes: { attribution } })
  h.host.page('/', { html })
  h.host.page('/signup', { html })
  const { page } = await h.open(await h.newContext())
  for (const path of [`/?ref=${alice}`, `/?ref=${bob}`, '/signup']) {
    await page.goto(new URL(path, h.host.url).href)
    await waitForApi(page)
    await flush(page)
  }
  await callReferral(page, 'track', 'signup', { userId: 'carol' })
  await flush(page)
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 2, totalConversions: 1 })
  return { page, alice, bob }
}

describe('data-attribution', () => {
  it('first: the second link’s click is counted, the sign-up credits the first', async () => {
    const { page, alice, bob } = await arriveTwiceThenSignUp('first')
    expect(await callReferral(page, 'getAttribution')).toMatchObject({ code: alice })
    expect(await credited(alice)).toEqual({ clicks: 1, conversions: 1 })
    expect(await credited(bob)).toEqual({ clicks: 1, conversions: 0 })
  })

  it('last: the same visits credit the second', async () => {
    const { alice, bob } = await arriveTwiceThenSignUp('last')
    expect(await credited(alice)).toEqual({ clicks: 1, conversions: 0 })
    expect(await credited(bob)).toEqual({ clicks: 1, conversions: 1 })
  })
})
