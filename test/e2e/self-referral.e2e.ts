// A referrer can't earn from their own link, in Chromium end to end: in the browser where their
// panel showed it, following it records no click, holds no referral and shows no banner, and a
// second account signed up there converts nothing; their own user id signed up on another device
// (the site's server, recordSignup) is refused as a self-referral. A friend's browser: one click,
// one conversion.
import { expect, it } from 'vitest'
import { recordSignup } from '../../src/server/record-signup.ts'
import { signUserToken } from '../../src/server/user-token.ts'
import { FAST, SEEDED_CAMPAIGN, useHarness } from './support/harness.ts'
import { callReferral, READY_ROOT, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

/** alice's account page: her panel shows her link. */
async function alicesBrowser() {
  const userToken = await signUserToken({ secretKey: 'sk_test_acme', userId: 'alice' })
  const account = h.host.page('/account', {
    html: widgetPage(h.service, {
      attributes: { campaign: SEEDED_CAMPAIGN, 'user-id': 'alice', 'user-token': userToken },
    }),
  })
  h.host.page('/', {
    html: widgetPage(h.service, {
      panel: false,
      banner: true,
      before: `<script>window.Referral=window.Referral||function(){(Referral.q=Referral.q||[]).push(arguments)};window.__self=[];Referral('on','selfreferral',function(e){window.__self.push(e.code)})</script>`,
    }),
  })
  const context = await h.newContext()
  const { page } = await h.open(context)
  await page.goto(account)
  await page.locator(READY_ROOT).waitFor()
  const url = await page.locator('[data-part="link"]').inputValue()
  return { context, page, url, code: new URL(url).searchParams.get('ref') ?? '' }
}

it("in the referrer's own browser: no click, no referral, no banner; a second account converts nothing", async () => {
  const { page, url, code } = await alicesBrowser()
  await page.goto(url)
  await waitForApi(page)
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __self: string[] }).__self), FAST)
    .toEqual([code])
  expect(await callReferral(page, 'getAttribution')).toBeNull()
  expect(new URL(page.url()).searchParams.has('ref')).toBe(false) // the address is cleaned all the same
  expect(await page.locator('[data-referral-banner] [data-part="banner"]').count()).toBe(0)

  await callReferral(page, 'track', 'signup', { userId: 'alice-second' })
  await page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(1)
  expect(await h.stats()).toMatchObject({ totalClicks: 0, totalConversions: 0 })
})

it("the referrer's own user id, signed up from another device through a friend's click: refused", async () => {
  const { url } = await alicesBrowser()
  const friend = await h.open(await h.newContext())
  await friend.page.goto(url)
  await waitForApi(friend.page)
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })
  const attribution = await callReferral(friend.page, 'getAttribution')
  const result = await recordSignup({
    secretKey: 'sk_test_acme',
    apiBase: h.service.url,
    userId: 'alice',
    attribution: attribution as Parameters<typeof recordSignup>[0]['attribution'],
  })
  expect(result).toMatchObject({ status: 'rejected', error: { code: 'self_referral' } })
  expect(await h.stats()).toMatchObject({ totalClicks: 1, totalConversions: 0 })
})

it("a friend's browser: one click, one conversion, the banner shown", async () => {
  const { url } = await alicesBrowser()
  const friend = await h.open(await h.newContext())
  await friend.page.goto(url)
  await waitForApi(friend.page)
  await friend.page.locator('[data-part="banner"]').waitFor()
  await callReferral(friend.page, 'track', 'signup', { userId: 'bob' })
  await friend.page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1, totalConversions: 1 })
})

it.each([
  ['the link request first', 'links'],
  ['the click first', 'events'],
])(
  "alice's panel page reached through her own link, %s: one verdict, no click, no referral",
  async (_, first) => {
    const code = await h.linkCode('alice') // made on another device
    const url = h.host.page('/account', {
      html: widgetPage(h.service, {
        attributes: { campaign: SEEDED_CAMPAIGN, 'user-id': 'alice' },
      }),
    })
    const context = await h.newContext()
    // The page sends both at once; the one that must come second waits for the other's answer.
    const second = first === 'links' ? '**/v1/events' : '**/v1/links'
    const firstDone = first === 'links' ? '/v1/links' : '/v1/events'
    let release = () => {}
    const answered = new Promise<void>((resolve) => {
      release = resolve
    })
    await context.route(second, async (route) => {
      await answered
      await route.continue()
    })
    const { page } = await h.open(context)
    page.on('requestfinished', (request) => {
      if (new URL(request.url()).pathname === firstDone && request.method() === 'POST') release()
    })
    await page.goto(`${url}?ref=${code}`)
    await page.locator('[data-part="link"]').waitFor()
    await callReferral(page, 'flush')

    await expect
      .poll(async () => (await h.admin('GET', `/v1/campaigns/${SEEDED_CAMPAIGN}`)).body, FAST)
      .toMatchObject({ stats: { totalClicks: 0, selfReferrals: 1 } })
    expect(await callReferral(page, 'getAttribution')).toBeNull()
    // The order held: the click was refused at once, or accepted and then taken back.
    const verdicts = h.eventRequests().flatMap((request) => request.results)
    expect(verdicts.map((result) => result.status)).toEqual([
      first === 'links' ? 'rejected' : 'accepted',
    ])
  },
)
