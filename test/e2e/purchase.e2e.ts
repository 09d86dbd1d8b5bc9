// A campaign that rewards the friend's first purchase (a service extension), in a real browser:
// the referrer's panel says so, a friend arrives through the link and signs up (no reward yet),
// and the site's backend records the friend's purchases with recordPurchase from Node: the first
// converts (two rewards), the second issues nothing, and the referrer's results count the buyer.
import { expect, it } from 'vitest'
import { recordPurchase } from '../../src/server/record-purchase.ts'
import { signUserToken } from '../../src/server/user-token.ts'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, READY_ROOT, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

it('a friend who signs up earns nothing yet; their first purchase converts, the second does not', async () => {
  const created = await h.admin('POST', '/v1/campaigns', {
    name: 'First order',
    rewardTrigger: 'purchase',
    referrerReward: { type: 'credit', amount: 20 },
    referredReward: { type: 'credit', amount: 15 },
  })
  expect(created.status).toBe(201)
  const campaign = (created.body as { id: string }).id
  const nothingYet = { totalClicks: 0, totalConversions: 0, totalRewardsIssued: 0 }
  expect(await h.stats(campaign)).toEqual(nothingYet)

  // The referrer's panel says what earns the reward.
  const userToken = await signUserToken({ secretKey: 'sk_test_acme', userId: 'alice' })
  const account = h.host.page('/account', {
    html: widgetPage(h.service, {
      attributes: { campaign, 'user-id': 'alice', 'user-token': userToken, locale: 'en-US' },
    }),
  })
  const referrer = await h.open(await h.newContext())
  await referrer.page.goto(account)
  await referrer.page.locator(READY_ROOT).waitFor()
  const part = (name: string) => referrer.page.locator(`[data-part="${name}"]`)
  expect(await part('referrer-reward').textContent()).toBe(
    'You get $20 credit when your friend makes their first purchase',
  )
  expect(await part('referred-reward').textContent()).toBe(
    'Your friend gets $15 credit on their first purchase',
  )
  await expect.poll(() => part('summary').textContent(), FAST).toBe('0 friends joined · 0 bought')
  const url = await part('link').inputValue()

  // A friend arrives through the link in their own browser, sees the banner, and signs up.
  h.host.page('/', {
    html: widgetPage(h.service, { panel: false, banner: true, attributes: { campaign } }),
  })
  const friend = await h.open(await h.newContext())
  await friend.page.goto(url)
  await waitForApi(friend.page)
  await expect
    .poll(() => friend.page.locator('[data-part="banner"] p').textContent(), FAST)
    .toBe('A friend invited you: get $15 credit on your first purchase')
  await callReferral(friend.page, 'track', 'signup', { userId: 'friend-1' })
  await friend.page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )
  // The service counts the friend as joined (the referrer's results, read with the secret key).
  const code = new URL(url).searchParams.get('ref')
  const joined = async () =>
    ((await h.admin('GET', `/v1/links/${code}/summary`)).body as { signups: number }).signups
  await expect.poll(joined, FAST).toBe(1)
  expect(await h.stats(campaign)).toEqual({ ...nothingYet, totalClicks: 1 })

  // The shop's backend records the friend's orders with the secret key, from Node.
  const buy = (orderId: string) =>
    recordPurchase({
      secretKey: 'sk_test_acme',
      apiBase: h.service.url,
      userId: 'friend-1',
      orderId,
      amount: 49.9,
      currency: 'USD',
    })
  expect(await buy('order-1')).toMatchObject({ status: 'accepted', orderId: 'order-1' })
  const converted = { totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 }
  expect(await h.stats(campaign)).toEqual(converted)
  expect(await buy('order-2')).toMatchObject({ status: 'accepted' })
  expect(await buy('order-1')).toMatchObject({ status: 'duplicate' })
  expect(await h.stats(campaign)).toEqual(converted)

  // The referrer's next visit counts the friend who joined and bought, and the reward.
  await referrer.page.reload()
  await referrer.page.locator(READY_ROOT).waitFor()
  await expect
    .poll(() => part('summary').textContent(), FAST)
    .toBe('1 friend joined · 1 bought · $20 earned')
  expect(await part('referrer-reward').textContent()).toBe(
    'You get $20 credit when your friend makes their first purchase',
  )
})
