// A referrer's own link in each engine: in the browser where their panel showed it, following it
// records no click and holds no referral, and a second account signed up there converts nothing;
// in a friend's browser the same link counts as ever.
import { expect, it } from 'vitest'
import { useEngine } from './support/harness.ts'
import { apiLoaded, call, enginePage, panel } from './support/in-page.ts'

const h = useEngine()

it("records nothing for the referrer's own link in their browser, and counts it in a friend's", async () => {
  const home = h.host.page('/', {
    html: enginePage(h.service, { attributes: { 'user-id': 'alice' } }),
  })
  const landing = h.host.page('/landing', { html: enginePage(h.service, { panel: false }) })
  const own = await h.visit(home)
  const shown = () => panel(own).then(({ state, link }) => (state === 'ready' ? link : null))
  await expect.poll(shown).toMatch(/\?ref=[A-Za-z0-9]{8,12}$/)
  const code = (await shown())?.split('?ref=')[1] ?? ''

  await own.goto(`${landing}?ref=${code}`)
  await expect.poll(() => apiLoaded(own)).toBe(true)
  await call(own, 'track', 'signup', { userId: 'alice-second-account' })
  await call(own, 'flush')
  expect(await call(own, 'getAttribution')).toBeNull()
  expect(await h.stats()).toEqual({ totalClicks: 0, totalConversions: 0, totalRewardsIssued: 0 })

  const friend = await h.visit(`${landing}?ref=${code}`)
  await expect.poll(() => h.stats()).toMatchObject({ totalClicks: 1 })
  await call(friend, 'track', 'signup', { userId: 'a-friend' })
  await expect
    .poll(() => h.stats())
    .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
})
