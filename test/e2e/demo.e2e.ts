// The QA demo page, started the way `npm start` starts it, driven through its own controls as a
// tester would: each control does what its label says.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import { launch, type PageLog, watchedPage } from './support/browser.ts'
import { type DemoServer, startDemoServer } from './support/demo-server.ts'

const DAY = 24 * 60 * 60 * 1000
const SEEDED = 'camp_acmeFriendsAndFamily'

let browser: Browser
let demo: DemoServer
let context: BrowserContext
let page: Page
let log: PageLog

beforeAll(async () => {
  ;[browser, demo] = await Promise.all([launch(), startDemoServer()])
})
afterAll(async () => {
  await browser?.close()
  await demo?.close()
})
beforeEach(async () => {
  await demo.api('POST', '/demo-api/reset')
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  context.setDefaultTimeout(15_000)
  ;({ page, log } = await watchedPage(context))
  await page.goto(demo.url)
})
afterEach(async () => {
  expect(log.errors).toEqual([])
  await context?.close()
})

// --- helpers -------------------------------------------------------------------------------

const scriptFrame = () => page.frameLocator('iframe[title="Script-tag widget"]')
const visitorFrame = () => page.frameLocator('iframe[title="Visitor page"]')
const preactWidget = () => page.locator('.preact-widget')
const stat = (name: 'clicks' | 'conversions' | 'rewards' | 'status') =>
  page.getByTestId(`stat-${name}`)
const text = (locator: Locator) => expect.poll(() => locator.textContent(), { timeout: 15_000 })
const count = (locator: Locator) => expect.poll(() => locator.count(), { timeout: 15_000 })
const requestRows = (path: string, status?: number) =>
  page.locator(
    `[data-testid="request-row"][data-path="${path}"]${status ? `[data-status="${status}"]` : ''}`,
  )

async function widgetsReady() {
  await scriptFrame().locator('[data-part="root"][data-state="ready"]').waitFor()
  await preactWidget().locator('[data-part="root"][data-state="ready"]').waitFor()
}

interface Logged {
  requests: Array<{ seq: number; path: string; status: number }>
}
const serviceLog = async () => (await demo.api<Logged>('GET', '/demo-api/requests')).requests

/** The referrer's share link opened in the visitor frame: banner shown, click counted. */
async function openVisitor(clicks = '1') {
  const shareLink = page.getByLabel('Current share link')
  await expect.poll(() => shareLink.inputValue(), { timeout: 15_000 }).toContain('ref=')
  await page.getByRole('button', { name: 'Open as a new visitor (frame)' }).click()
  await visitorFrame().locator('[data-part="banner"]').waitFor()
  await text(stat('clicks')).toBe(clicks)
}

// --- tests ---------------------------------------------------------------------------------

it('shows the script-tag and the Preact widget live against the local service', async () => {
  await widgetsReady()
  await text(scriptFrame().locator('[data-part="headline"]')).toBe('Give $10, get $10')
  await text(preactWidget().locator('[data-part="headline"]')).toBe('Give $10, get $10')
  // Both show the signed-in user's link, pointing to the visitor's origin.
  const link = await scriptFrame().locator('[data-part="link"]').inputValue()
  expect(link).toMatch(new RegExp(`^${demo.visitorUrl}/demo/visitor\\.html\\?.*ref=\\w+`))
  expect(await preactWidget().locator('[data-part="link"]').inputValue()).toBe(link)
  await expect.poll(() => page.getByLabel('Current share link').inputValue()).toBe(link)
  await text(stat('status')).toBe('active')
  await count(requestRows('/v1/campaigns?status=active&limit=1', 200)).toBeGreaterThan(0)
})

it('refuses a secret key and a malformed key in both widgets, and sends nothing', async () => {
  await widgetsReady()
  const keySelect = page.getByLabel('Key', { exact: true })
  const cases = [
    ['sk_test_… · a secret key (refused)', /Secret keys must never reach a browser/],
    ['pk_tset_acme · malformed key', /not a valid public key/],
  ] as const
  for (const [label, refusal] of cases) {
    const before = (await serviceLog()).at(-1)?.seq ?? 0
    const sentBefore = log.requests.length
    await keySelect.selectOption({ label })
    await text(page.getByTestId('refusal-script')).toMatch(refusal)
    await text(page.getByTestId('refusal-preact')).toMatch(refusal)
    // Said once per widget, as the Preact column says it: the script-tag frame leaves it to
    // its column, which drops the console's prefix.
    expect(await scriptFrame().getByTestId('frame-refusal').isVisible()).toBe(false)
    expect(await page.getByTestId('refusal-script').textContent()).not.toContain('[referral]')
    // What each widget sent, counted in its page (fetch and sendBeacon): nothing.
    await text(page.getByTestId('facts-script-requests')).toBe('0')
    await text(page.getByTestId('facts-preact-requests')).toBe('0')
    await text(scriptFrame().getByTestId('frame-meta')).toMatch(/^0 requests to \/v1/)
    // Nor did the browser ask the service for anything, and the service heard nothing.
    expect(log.requests.slice(sentBefore).filter((url) => url.includes('/v1/'))).toEqual([])
    expect((await serviceLog()).filter((entry) => entry.seq > before)).toEqual([])
    // No panel in either place.
    expect(await scriptFrame().locator('[data-part="root"]').count()).toBe(0)
    expect(await preactWidget().locator('[data-part="root"]').count()).toBe(0)
  }
  await keySelect.selectOption({ label: 'pk_test_acme · Acme, test' })
  await widgetsReady()
})

it('fault injection: two 429s with Retry-After pause the queue, and the requests view shows them', async () => {
  await openVisitor()
  await page.getByLabel('429 Too Many Requests').check()
  await page.getByLabel('Next N answers').fill('2')
  await page.getByLabel('Retry-After (s)').fill('2')
  await page.getByRole('button', { name: 'Arm fault' }).click()
  await text(page.getByTestId('fault-current')).toBe(
    'next 2 test-mode answers: 429, Retry-After 2 s',
  )

  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  const delivery = page.getByTestId('delivery-visitor')
  await expect
    .poll(() => delivery.getAttribute('data-state'), { timeout: 15_000 })
    .toBe('rate-limited')
  expect(await delivery.textContent()).toMatch(/^Rate-limited until \d\d:\d\d:\d\d/)
  await page
    .locator('[data-testid="event-row"][data-source="visitor"][data-name="ratelimited"]')
    .first()
    .waitFor()
  await count(requestRows('/v1/events', 429)).toBe(2)
  // After the second pause the signup goes through, counted once.
  await text(stat('conversions')).toBe('1')
  await expect.poll(() => delivery.getAttribute('data-state')).toBe('idle')
  await text(page.getByTestId('fault-current')).toBe('none')
  await count(requestRows('/v1/events', 200)).toBe(2) // the click, then the signup

  // An armed fault can be taken back before it is used.
  await page.getByLabel('503 Service Unavailable').check()
  await page.getByRole('button', { name: 'Arm fault' }).click()
  await text(page.getByTestId('fault-badge')).toBe('next 2 test-mode answers: 503')
  await page.getByRole('button', { name: 'Clear fault' }).click()
  await text(page.getByTestId('fault-badge')).toBe('none')
  expect(await demo.api('GET', '/demo-api/faults')).toEqual({ fault: null })
})

it('simulated offline holds the visitor’s signup until the widgets are back online', async () => {
  await openVisitor()
  await page.getByLabel('Widgets offline (simulated)').check()
  await text(visitorFrame().getByTestId('frame-meta')).toMatch(/offline \(simulated\)$/)
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  const pane = page.getByTestId('queue-visitor')
  await count(pane.getByTestId('queued-event')).toBe(1)
  await expect
    .poll(() => page.getByTestId('delivery-visitor').getAttribute('data-state'))
    .toBe('offline')
  await count(requestRows('/v1/events')).toBe(1) // the click only
  await page.getByLabel('Widgets offline (simulated)').uncheck()
  await text(stat('conversions')).toBe('1')
  await count(pane.getByTestId('queued-event')).toBe(0)
})

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

it('visitor simulation: the share link brings a click, a signup is a conversion, clear starts over', async () => {
  await text(stat('clicks')).toBe('0')
  await openVisitor()
  await text(visitorFrame().locator('[data-part="banner"]')).toContain('$10')
  await text(page.getByTestId('visitor-facts')).toMatch(/Banner: shown/)
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  await text(stat('conversions')).toBe('1')
  await text(stat('rewards')).toBe('2')
  await count(
    page.locator('[data-testid="event-row"][data-source="visitor"][data-name="event:sent"]'),
  ).toBe(2)

  await page.getByRole('button', { name: 'Clear the visitor' }).click()
  await text(visitorFrame().getByTestId('visitor-empty')).toMatch(
    /^No visitor: \d+ referral: keys? erased/,
  )
  // A new visitor through the same link is a new click.
  await openVisitor('2')
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

// --- what a tester trips over ---------------------------------------------------------------

it('signs the visitor up from one field, the demo page’s, whether in the frame or a tab', async () => {
  await openVisitor()
  expect(await page.getByLabel('Visitor signs up as').isVisible()).toBe(true)
  // The visitor page driven by the demo page has no sign-up field of its own.
  expect(await visitorFrame().locator('input:visible').count()).toBe(0)

  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Open as a new visitor (new tab)' }).click(),
  ])
  await tab.locator('[data-part="banner"]').waitFor()
  expect(await tab.locator('input:visible').count()).toBe(0)
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  await text(stat('conversions')).toBe('1')
  await tab.close()

  // Opened by hand, with no demo page around, the visitor page offers its own.
  const alone = await context.newPage()
  await alone.goto(`${demo.visitorUrl}/demo/visitor.html?key=pk_test_acme`)
  await alone.getByLabel('New account').waitFor()
  await alone.close()
})

it('asks a signed-in tester to open the share link, not to sign in, before any visitor', async () => {
  await widgetsReady()
  await text(page.getByTestId('visitor-placeholder')).toMatch(
    /^No visitor yet: open the share link/,
  )
  await page.getByRole('button', { name: 'Sign out' }).click()
  await text(page.getByTestId('visitor-placeholder')).toMatch(/^No visitor yet: sign a user in/)
})

it('says a refusal once in the script-tag column, and the frame by itself says it too', async () => {
  await widgetsReady()
  await page.getByLabel('Key', { exact: true }).selectOption('sk_test_notARealSecretKey')
  await text(page.getByTestId('refusal-script')).toMatch(/^Refused: This is a secret key/)
  const column = page.locator('article[aria-labelledby="script-tag-title"]')
  const said = /Secret keys must never reach a browser/
  await count(column.getByText(said).filter({ visible: true })).toBe(1)
  expect(await scriptFrame().getByText(said).filter({ visible: true }).count()).toBe(0)

  const alone = await context.newPage()
  await alone.goto(`${demo.url}/demo/frame.html?key=sk_test_notARealSecretKey`)
  await text(alone.getByTestId('frame-refusal')).toMatch(/Secret keys must never reach/)
  await alone.close()
})

it('shows every option of every select in full, at the widths the page lays out for', async () => {
  await page.locator('#token-lifetime').waitFor()
  const clipped: string[] = []
  for (const width of [1280, 900, 390, 360]) {
    await page.setViewportSize({ width, height: 900 })
    const found = await page.evaluate(() => {
      const context = document.createElement('canvas').getContext('2d')
      if (!context) throw new Error('no 2D canvas')
      return [...document.querySelectorAll('select')].flatMap((select) => {
        const style = getComputedStyle(select)
        context.font = style.font
        // A native menu list draws its arrow inside the box, beside the padding.
        const arrow = style.appearance === 'none' ? 0 : 20
        const room =
          select.clientWidth -
          parseFloat(style.paddingLeft) -
          parseFloat(style.paddingRight) -
          arrow
        return [...select.options]
          .map((option) => ({ text: option.text, needs: context.measureText(option.text).width }))
          .filter(({ needs }) => needs > room + 0.5)
          .map(({ text, needs }) => `#${select.id} "${text}": ${needs.toFixed(0)} px in ${room} px`)
      })
    })
    clipped.push(...found.map((line) => `${width} px: ${line}`))
  }
  expect(clipped).toEqual([])
})

it('counts an armed fault down in one place: no stale count beside the live one', async () => {
  await openVisitor()
  await page.getByLabel('429 Too Many Requests').check()
  await page.getByLabel('Next N answers').fill('3')
  // Long enough that the widget does not try again during the test.
  await page.getByLabel('Retry-After (s)').fill('600')
  await page.getByRole('button', { name: 'Arm fault' }).click()
  await text(page.getByTestId('fault-badge')).toBe(
    'next 3 test-mode answers: 429, Retry-After 600 s',
  )
  await page.getByRole('button', { name: 'Sign the visitor up' }).click()
  await count(requestRows('/v1/events', 429)).toBe(1)
  await text(page.getByTestId('fault-badge')).toMatch(/^next 2 /)
  const faults = page.locator('details', { has: page.locator('#faults-title') })
  const counts = [...((await faults.textContent()) ?? '').matchAll(/next (\d+)/g)].map(([, n]) => n)
  expect(counts.length).toBeGreaterThan(0)
  expect(
    counts.every((n) => n === '2'),
    `the fault panel says ${counts.join(', ')}`,
  ).toBe(true)
})
