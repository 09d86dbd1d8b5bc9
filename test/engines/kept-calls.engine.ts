// A sign-up the site tracks before the widget's script has run, in each engine: the loader keeps
// it, and it is recorded as if the whole widget had been there, with the referral the visitor
// holds wherever it is held: the site's shared cookie from another subdomain, or a hand-off from
// another domain (its click recorded there, or, before consent, here). The service's conversions
// are the judge.
import { expect, it } from 'vitest'
import { STUB } from '../e2e/support/widget-page.ts'
import { useEngine } from './support/harness.ts'
import { address, apiLoaded, call, enginePage } from './support/in-page.ts'

const h = useEngine()

/** A page whose own script signs carol up through the stub, before the widget's tag. */
const signupPage = (attributes: Record<string, string> = {}) =>
  enginePage(h.service, {
    panel: false,
    attributes,
    before: `<script>${STUB};Referral('track', 'signup', { userId: 'carol' })</script>`,
  })

const converted = { totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 }

it('across subdomains: a click on www, the sign-up kept on app before the tag ran, one conversion', async () => {
  const code = await h.linkCode('alice')
  const shared = { 'cookie-domain': 'shop.test' }
  h.host.page('/landing', { html: enginePage(h.service, { panel: false, attributes: shared }) })
  h.host.page('/welcome', { html: signupPage(shared) })
  const tab = await h.visit(h.site('www.shop.test', `/landing?ref=${code}`))
  await expect.poll(() => h.stats()).toMatchObject({ totalClicks: 1 })

  await tab.goto(h.site('app.shop.test', '/welcome'))
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  await call(tab, 'flush')
  await expect.poll(() => h.stats()).toEqual(converted)
  expect([...h.acceptedCounts().values()]).toEqual([1, 1])
})

it.each([
  ['h1', {}],
  ['c1', { consent: 'required' }],
])(
  'a hand-off to another domain (%s), the sign-up kept there before the tag ran: one conversion',
  async (form, shopAttributes) => {
    const code = await h.linkCode('alice')
    const signup = h.site('app.other.test', '/welcome')
    h.host.page('/landing', {
      html: enginePage(h.service, {
        panel: false,
        attributes: { outbound: 'app.other.test', ...shopAttributes },
        after: `<a id="signup" href="${signup}">Sign up</a>`,
      }),
    })
    h.host.page('/welcome', { html: signupPage() })
    const tab = await h.visit(h.site('www.shop.test', `/landing?ref=${code}`))
    await expect.poll(() => apiLoaded(tab)).toBe(true)
    // The link carries the referral once the page's tracking part runs (decorate() says so).
    await expect
      .poll(() => call(tab, 'decorate', signup))
      .toMatch(new RegExp(`ref_handoff=${form}\\.`))
    if (form === 'h1') await expect.poll(() => h.stats()).toMatchObject({ totalClicks: 1 })

    await tab.evaluate(() => document.getElementById('signup')?.click())
    await expect.poll(() => address(tab)).toBe(signup)
    await expect.poll(() => apiLoaded(tab)).toBe(true)
    await call(tab, 'flush')
    await expect.poll(() => h.stats()).toEqual(converted)
    expect([...h.acceptedCounts().values()]).toEqual([1, 1])
  },
)
