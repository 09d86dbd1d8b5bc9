// The QA demo page's controls for rewards on purchase and for the hand-off to another domain,
// driven through the page as a tester would: the campaign's reward trigger switched between
// sign-up and first purchase (both widgets and the banner then say so), the visitor's purchases
// recorded by the dev server as the shop's backend (the first converts, a second order issues
// nothing, the same order is a duplicate), and the visitor handed off from the shop's origin to
// the app's, under the other host name (adopted, one click, the sign-up there credited).
import { expect, it } from 'vitest'
import {
  context,
  count,
  demo,
  log,
  openVisitor,
  page,
  preactWidget,
  requestRows,
  scriptFrame,
  stat,
  text,
  useDemoSession,
  visitorFrame,
  widgetsReady,
} from './support/demo-session.ts'

const SEEDED = 'camp_acmeFriendsAndFamily'
const SIGNUP_WORDS = 'You get $10 credit'
const PURCHASE_WORDS = 'You get $10 credit when your friend makes their first purchase'

useDemoSession()

interface Stats {
  totalClicks: number
  totalConversions: number
  totalRewardsIssued: number
  selfReferrals: number
  reversedConversions: number
}
/** The seeded campaign as the service holds it. */
const seeded = () =>
  demo.api<{ rewardTrigger: string; stats: Stats }>(
    'GET',
    `/demo-api/admin/acme/test/campaigns/${SEEDED}`,
  )

const referrerReward = () => ({
  script: scriptFrame().locator('[data-part="referrer-reward"]'),
  preact: preactWidget().locator('[data-part="referrer-reward"]'),
})

async function switchTrigger(label: 'sign-up' | 'first purchase') {
  await page.getByTestId('reward-trigger').getByLabel(label, { exact: true }).check()
  await text(stat('trigger')).toBe(`rewards on the friend’s ${label}`)
}

it('switches the campaign between sign-up and first purchase, and every widget says which', async () => {
  await widgetsReady()
  await text(referrerReward().script).toBe(SIGNUP_WORDS)
  await text(referrerReward().preact).toBe(SIGNUP_WORDS)
  const purchase = page.getByTestId('reward-trigger').getByLabel('first purchase')
  expect(await purchase.isChecked()).toBe(false)

  await switchTrigger('first purchase')
  await text(page.getByTestId('campaign-outcome')).toMatch(
    /^“Acme friends & family” now rewards the friend’s first purchase/,
  )
  expect(await purchase.isChecked()).toBe(true)
  expect((await seeded()).rewardTrigger).toBe('purchase')
  await text(referrerReward().script).toBe(PURCHASE_WORDS)
  await text(referrerReward().preact).toBe(PURCHASE_WORDS)
  await openVisitor()
  await text(visitorFrame().locator('[data-part="banner"]')).toContain('on your first purchase')

  await switchTrigger('sign-up')
  expect((await seeded()).rewardTrigger).toBe('signup')
  await text(referrerReward().script).toBe(SIGNUP_WORDS)
  await text(referrerReward().preact).toBe(SIGNUP_WORDS)
})

it('creates a campaign that rewards the first purchase, and the widgets use it', async () => {
  await widgetsReady()
  const create = page.getByRole('form', { name: 'Create a campaign' })
  await create.getByLabel('Name').fill('E2E first order')
  await create.getByLabel('Rewards on').selectOption('purchase')
  await create.getByRole('button', { name: 'Create campaign' }).click()
  await text(page.getByTestId('campaign-outcome')).toMatch(
    /^Created “E2E first order” \(camp_[\w-]+\), active, rewards on the friend’s first purchase/,
  )
  await text(stat('trigger')).toBe('rewards on the friend’s first purchase')
  await text(referrerReward().script).toBe(
    'You get $5 credit when your friend makes their first purchase',
  )
  await text(referrerReward().preact).toBe(
    'You get $5 credit when your friend makes their first purchase',
  )
})

it('records the visitor’s purchases on the server: the first converts, a second order issues nothing, the same order is a duplicate', async () => {
  const purchaseHeaders: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/purchases'))
      purchaseHeaders.push(JSON.stringify(request.headers()))
  })
  await widgetsReady()
  await switchTrigger('first purchase')
  await openVisitor()
  const friend = await page.getByLabel('Visitor signs up as').inputValue()
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  // The sign-up reaches the service (after the click): a referral, no reward yet.
  await count(requestRows('/v1/events', 200)).toBe(2)
  expect((await seeded()).stats).toMatchObject({ totalClicks: 1, totalConversions: 0 })
  await text(stat('conversions')).toBe('0')

  // The buyer is the user the visitor signed up as.
  expect(await page.getByLabel('Buyer (user id)').inputValue()).toBe(friend)
  const firstOrder = await page.getByLabel('Order id').inputValue()
  const outcome = page.getByTestId('purchase-outcome')
  const record = page.getByRole('button', { name: 'Record purchase' })
  await record.click()
  await text(outcome).toMatch(
    new RegExp(
      `^accepted: order ${firstOrder} of ${friend}, \\$49\\.90 \\(event pu_[\\w-]+\\)\\.$`,
    ),
  )
  expect(await outcome.getAttribute('data-status')).toBe('accepted')
  await text(stat('conversions')).toBe('1')
  await text(stat('rewards')).toBe('2')

  // A second order of the same buyer: accepted, and nothing more issued.
  await page.getByRole('button', { name: 'New order id' }).click()
  const secondOrder = await page.getByLabel('Order id').inputValue()
  expect(secondOrder).not.toBe(firstOrder)
  await record.click()
  await text(outcome).toMatch(new RegExp(`^accepted: order ${secondOrder} `))
  expect((await seeded()).stats).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })

  // The first order again: the order id is the idempotency key.
  await page.getByLabel('Order id').fill(firstOrder)
  await record.click()
  await text(outcome).toBe(`duplicate: order ${firstOrder} was recorded already; nothing changed.`)
  expect(await outcome.getAttribute('data-status')).toBe('duplicate')
  expect((await seeded()).stats).toMatchObject({ totalConversions: 1, totalRewardsIssued: 2 })
  await text(stat('conversions')).toBe('1')
  await text(stat('rewards')).toBe('2')

  // A value recordPurchase refuses: its own words, and nothing sent.
  await page.getByLabel('Amount').fill('0')
  await record.click()
  await text(outcome).toBe(
    '400 parameter_invalid: [referral] amount must be a positive finite number, not 0.',
  )
  expect(await outcome.getAttribute('data-status')).toBe('error')

  // Three purchases reached /v1/events with the secret key, all from the server: the browser
  // sent only the visitor's click and sign-up there.
  await count(requestRows('/v1/events').filter({ hasText: 'sk_test' })).toBe(3)
  expect(log.requests.filter((url) => new URL(url).pathname === '/v1/events')).toHaveLength(2)
  expect(purchaseHeaders.length).toBe(4)
  for (const headers of purchaseHeaders) expect(headers).not.toMatch(/authorization|sk_/i)
  expect(await page.content()).not.toMatch(/sk_(test|live)_(acme|globex)/)
})

it('hands the visitor off from the shop to the app on the other host name: adopted, one click, the sign-up there credited', async () => {
  await widgetsReady()
  await openVisitor()
  const code = page.getByTestId('visitor-code')
  const visitorId = page.getByTestId('visitor-id')
  await text(page.getByTestId('visitor-site')).toBe('shop')
  await expect.poll(() => code.textContent()).toMatch(/^[A-Za-z0-9]{8,12}$/)
  const shop = { code: await code.textContent(), visitorId: await visitorId.textContent() }
  expect(shop.visitorId).toMatch(/^[\w-]{8,64}$/)

  const link = visitorFrame().getByTestId('handoff-link')
  await text(link).toBe(`Continue to the app on ${demo.appUrl}`)
  await text(visitorFrame().getByTestId('handoff')).toContain('data-outbound="127.0.0.1"')
  // As written, the link carries nothing: the widget adds the referral as it is followed.
  expect(await link.getAttribute('href')).toBe(`${demo.appUrl}/demo/app.html?key=pk_test_acme`)
  const followed: string[] = []
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.url().startsWith(demo.appUrl)) {
      followed.push(request.url())
    }
  })
  await link.click()

  await text(page.getByTestId('visitor-site')).toBe('app')
  expect(followed[0]).toMatch(
    new RegExp(`[?&]ref_handoff=h1\\.${shop.code}\\.${shop.visitorId}\\.[0-9a-z]+\\.[0-9a-z]+$`),
  )
  await text(visitorFrame().getByTestId('handoff-arrival')).toBe(
    `Hand-off adopted: code ${shop.code} for visitor ${shop.visitorId}, as on the shop; no click sent from here.`,
  )
  await text(code).toBe(shop.code)
  await text(visitorId).toBe(shop.visitorId)
  await text(page.getByTestId('handoff-verdict')).toBe(
    'Hand-off: adopted: the same code and visitor id as on the shop',
  )
  await visitorFrame().locator('[data-part="banner"]').waitFor()
  // The address bar on the app lost ref_handoff, as it loses ref.
  await expect
    .poll(() =>
      page
        .frames()
        .find((frame) => frame.url().startsWith(demo.appUrl))
        ?.url(),
    )
    .toBe(`${demo.appUrl}/demo/app.html?key=pk_test_acme`)

  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  await text(stat('conversions')).toBe('1')
  await text(stat('rewards')).toBe('2')
  // One click, made on the shop; the app's only event is the sign-up.
  expect((await seeded()).stats).toEqual({
    totalClicks: 1,
    totalConversions: 1,
    totalRewardsIssued: 2,
    selfReferrals: 0,
    reversedConversions: 0,
  })
  await count(requestRows('/v1/events', 200)).toBe(2)
  expect(await stat('clicks').textContent()).toBe('1')

  // A new visitor starts clean on both sites.
  await page.getByRole('button', { name: 'Clear the visitor' }).click()
  await visitorFrame().getByTestId('visitor-empty').waitFor()
  const app = await context.newPage()
  await app.goto(`${demo.appUrl}/demo/app.html`)
  await app.getByTestId('visitor-empty').waitFor()
  expect(
    await app.evaluate(() =>
      Object.keys(localStorage).filter((key) => key.startsWith('referral:')),
    ),
  ).toEqual([])
  await app.close()
})
