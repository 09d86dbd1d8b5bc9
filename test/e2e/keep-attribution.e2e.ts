// Attribution kept past Safari's seven days by the site's own server: a site whose pages and
// sign-up route go through docs/examples/server/keep-fetch.ts (keepAttribution on every response).
// A visitor arrives through a link, sees one more page, and then loses everything a script wrote
// (every cookie that is not HttpOnly, localStorage, sessionStorage), as Safari does after seven
// days without a visit: the sign-up the server records still converts. Without keepAttribution,
// the same visit converts nothing.

import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { sevenDaysInSafari, useKeepingSites } from './support/keeping-site.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()
const startSite = useKeepingSites(h)
/** Every page of the site: the tag with data-cookie-domain="auto". */
const sitePage = () =>
  widgetPage(h.service, { panel: false, attributes: { 'cookie-domain': 'auto' } })

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
  const { before, after, result } = await visit(await startSite(sitePage))
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
  const { after, result } = await visit(await startSite(sitePage, false))
  expect(after).toEqual([])
  expect(result).toMatchObject({ status: 'accepted' })
  expect(await h.stats()).toMatchObject({ totalClicks: 1, totalConversions: 0 })
})
