// The referrer's own results (issue 15), in a real browser: a panel given a user token minted
// on the server by signUserToken, a referred visitor who signs up in another browser, and the
// referrer's next visit showing "1 friend joined" with the reward earned.
import { expect, it } from 'vitest'
import { signUserToken } from '../../src/server/user-token.ts'
import { FAST, SEEDED_CAMPAIGN, useHarness } from './support/harness.ts'
import { callReferral, READY_ROOT, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

it('a referrer with a token sees a friend who signed up through their link, with the reward', async () => {
  // The campaign takes links only from a referrer proving who they are.
  const patched = await h.admin('PATCH', `/v1/campaigns/${SEEDED_CAMPAIGN}`, {
    requireUserToken: true,
  })
  expect(patched.status).toBe(200)
  const userToken = await signUserToken({ secretKey: 'sk_test_acme', userId: 'alice' })
  const account = h.host.page('/account', {
    html: widgetPage(h.service, {
      attributes: {
        campaign: SEEDED_CAMPAIGN,
        'user-id': 'alice',
        'user-token': userToken,
        locale: 'en-US',
      },
    }),
  })
  const referrer = await h.newContext()
  const { page, log } = await h.open(referrer)
  await page.goto(account)
  await page.locator(READY_ROOT).waitFor()
  const summary = page.locator('[data-part="summary"]')
  await expect.poll(() => summary.textContent(), FAST).toBe('0 friends joined')
  const url = await page.locator('[data-part="link"]').inputValue()

  const flush = (target: typeof page) =>
    target.evaluate(() =>
      (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
    )
  // A friend arrives through the link in their own browser and signs up.
  const visitor = await h.newContext()
  const friend = await h.open(visitor)
  h.host.page('/', { html: widgetPage(h.service, { panel: false }) })
  await friend.page.goto(url)
  await waitForApi(friend.page)
  await callReferral(friend.page, 'track', 'signup', { userId: 'friend-1' })
  await flush(friend.page)

  // The open panel asks again after flush()...
  expect(await summary.textContent()).toBe('0 friends joined')
  await flush(page)
  await expect.poll(() => summary.textContent(), FAST).toBe('1 friend joined · $10 earned')
  // ...and the referrer's next load shows it from the start.
  await page.reload()
  await page.locator(READY_ROOT).waitFor()
  await expect.poll(() => summary.textContent(), FAST).toBe('1 friend joined · $10 earned')
  // The token never left memory: not in storage, the address bar or the console.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }))
  expect(stored).not.toContain(userToken)
  expect(page.url()).not.toContain(userToken)
  expect(log.console.join('\n')).not.toContain(userToken)
})

it('without a token the panel shows what it always did: no summary, no error', async () => {
  const account = h.host.page('/account', {
    html: widgetPage(h.service, { attributes: { campaign: SEEDED_CAMPAIGN, 'user-id': 'bob' } }),
  })
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(account)
  await page.locator('[data-part="link"]').waitFor()
  expect(await page.locator('[data-part="summary"]').count()).toBe(0)
  expect(log.console.filter((line) => line.startsWith('error:'))).toEqual([])
  expect(
    h.service.service.requestLog.since(0).some((entry) => entry.path.endsWith('/summary')),
  ).toBe(false)
})
