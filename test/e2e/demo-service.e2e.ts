// The QA demo page's controls over the local service, driven as a tester would: campaigns created
// and paused through the admin route (never with a secret key in the page), user tokens required
// and minted on the server, the service clock moved forward, and the test data reset.
import { expect, it } from 'vitest'
import {
  count,
  demo,
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

const DAY = 24 * 60 * 60 * 1000
const SEEDED = 'camp_acmeFriendsAndFamily'

useDemoSession()

it('creates a campaign and pauses it through the admin route, never with a secret key in the page', async () => {
  const adminHeaders: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/demo-api/admin/'))
      adminHeaders.push(JSON.stringify(request.headers()))
  })
  await widgetsReady()
  const create = page.getByRole('form', { name: 'Create a campaign' })
  await create.getByLabel('Name').fill('E2E spring')
  await create.getByLabel('Referrer gets').fill('7')
  await create.getByLabel('Friend gets').fill('3')
  await create.getByRole('button', { name: 'Create campaign' }).click()
  await text(page.getByTestId('campaign-outcome')).toMatch(/^Created “E2E spring” \(camp_/)
  const id = /\((camp_[\w-]+)\)/.exec(
    (await page.getByTestId('campaign-outcome').textContent()) ?? '',
  )?.[1]
  expect(id).toBeDefined()
  expect(await page.getByLabel('Campaign', { exact: true }).inputValue()).toBe(id)
  await text(stat('status')).toBe('active')
  await text(scriptFrame().locator('[data-part="headline"]')).toBe('Give $3, get $7')
  await text(preactWidget().locator('[data-part="headline"]')).toBe('Give $3, get $7')

  await page.getByRole('button', { name: 'Pause', exact: true }).click()
  await text(page.getByTestId('campaign-outcome')).toBe('Paused “E2E spring”: now paused.')
  await text(stat('status')).toBe('paused')
  // A public key cannot see a paused campaign: both panels are empty.
  // (An empty panel is an empty element: attached, not visible.)
  await scriptFrame()
    .locator('[data-part="root"][data-state="empty"]')
    .waitFor({ state: 'attached' })
  await preactWidget()
    .locator('[data-part="root"][data-state="empty"]')
    .waitFor({ state: 'attached' })
  await text(page.getByTestId('facts-script')).toMatch(/Panel: empty/)
  const stored = await demo.api<{ status: string; referrerReward: { amount: number } }>(
    'GET',
    `/demo-api/admin/acme/test/campaigns/${id}`,
  )
  expect(stored).toMatchObject({ status: 'paused', referrerReward: { amount: 7 } })

  await page.getByRole('button', { name: 'Resume', exact: true }).click()
  await text(stat('status')).toBe('active')
  await scriptFrame().locator('[data-part="root"][data-state="ready"]').waitFor()

  expect(adminHeaders.length).toBeGreaterThan(0)
  for (const headers of adminHeaders) expect(headers).not.toMatch(/authorization|sk_/i)
  expect(await page.content()).not.toMatch(/sk_(test|live)_(acme|globex)/)
})

it('moves the service clock forward: a signup after the attribution window is not converted', async () => {
  await openVisitor()
  const clock = page.getByTestId('clock-now')
  await text(clock).toMatch(/^\d{4}-/)
  const before = Date.parse((await clock.textContent()) ?? '')
  await page.getByRole('button', { name: '+31 days' }).click()
  await text(page.getByTestId('clock-outcome')).toMatch(/^Moved forward 31 days/)
  await expect
    .poll(async () => Date.parse((await clock.textContent()) ?? '') - before)
    .toBeGreaterThanOrEqual(31 * DAY)
  await text(page.getByTestId('clock-offset')).toMatch(/^\+\d+ d/)

  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  await count(requestRows('/v1/events', 200)).toBe(2) // the click, then the signup: accepted…
  const seeded = await demo.api<{ stats: { totalClicks: number; totalConversions: number } }>(
    'GET',
    `/demo-api/admin/acme/test/campaigns/${SEEDED}`,
  )
  expect(seeded.stats).toMatchObject({ totalClicks: 1, totalConversions: 0 }) // …not attributed
  expect(await stat('conversions').textContent()).toBe('0')
})

it('resets the test data', async () => {
  await openVisitor()
  await demo.api('POST', '/demo-api/admin/acme/test/campaigns', {
    name: 'Leftover',
    rewardTrigger: 'signup',
    referrerReward: { type: 'credit', amount: 1 },
    referredReward: { type: 'credit', amount: 1 },
  })
  const leftover = page
    .getByLabel('Campaign', { exact: true })
    .locator('option', { hasText: 'Leftover' })
  await count(leftover).toBe(1)
  await count(requestRows('/v1/events')).toBe(1)

  await page.getByRole('button', { name: 'Reset test data' }).click()
  await text(page.getByTestId('reset-outcome')).toMatch(/^Test data reset/)
  await text(stat('clicks')).toBe('0')
  await count(leftover).toBe(0)
  await count(requestRows('/v1/events')).toBe(0)
  await visitorFrame().getByTestId('visitor-empty').waitFor()
  await widgetsReady()
  await text(stat('status')).toBe('active')
})

it('requires user tokens on a campaign, mints the demo user’s token on the server and shows their results', async () => {
  const tokenRequests: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/user-token')) tokenRequests.push(JSON.stringify(request.headers()))
  })
  await widgetsReady()
  await openVisitor()
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  await text(stat('conversions')).toBe('1')

  await page.getByLabel('Require a user token for links (requireUserToken)').check()
  await text(page.getByTestId('campaign-outcome')).toMatch(/now requires a user token/)
  const stored = await demo.api<{ requireUserToken: boolean }>(
    'GET',
    `/demo-api/admin/acme/test/campaigns/${SEEDED}`,
  )
  expect(stored.requireUserToken).toBe(true)

  await page.getByRole('button', { name: 'Mint a token for user_123' }).click()
  await text(page.getByTestId('user-token')).toMatch(/^Token v1\.\S+… for user_123, until /)
  await page.getByRole('button', { name: 'Show summary' }).click()
  await text(page.getByTestId('summary-clicks')).toBe('1')
  await text(page.getByTestId('summary-signups')).toBe('1')
  await text(page.getByTestId('summary-conversions')).toBe('1')
  await text(page.getByTestId('summary-earned')).toBe('$10.00')
  await count(page.getByTestId('summary-recent')).toBe(1)
  // The Preact widget identifies with the minted token and shows the same results under its link.
  await text(preactWidget().locator('[data-part="summary"]')).toBe('1 friend joined · $10 earned')
  await count(requestRows(`/v1/links/${await linkCode()}/summary`, 200)).toBeGreaterThan(1)

  // The page held no secret key: the token came from the server, the summary from the public key.
  expect(tokenRequests.length).toBe(1)
  for (const headers of tokenRequests) expect(headers).not.toMatch(/authorization|sk_/i)
  expect(await page.content()).not.toMatch(/sk_(test|live)_(acme|globex)/)

  await page.getByLabel('Require a user token for links (requireUserToken)').uncheck()
  await text(page.getByTestId('campaign-outcome')).toMatch(/no longer requires a user token/)
})

/** The code of the share link the widgets show. */
async function linkCode() {
  const url = new URL(await page.getByLabel('Current share link').inputValue())
  return url.searchParams.get('ref') ?? ''
}
