// The referrer's panel and the referred visitor's path, in a real browser on a host page of
// another origin: rewards, the share link, copying it, a visit through it, and a later signup.
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import {
  callReferral,
  queueSize,
  READY_ROOT,
  storageEntries,
  waitForApi,
} from './support/in-page.ts'
import { STUB, widgetPage } from './support/widget-page.ts'

const h = useHarness()

/** A campaign whose two rewards differ, so a swapped pair shows. */
async function createCampaign(name: string): Promise<string> {
  const { status, body } = await h.admin('POST', '/v1/campaigns', {
    name,
    rewardTrigger: 'signup',
    referrerReward: { type: 'credit', amount: 25, currency: 'USD' },
    referredReward: { type: 'credit', amount: 5, currency: 'EUR' },
  })
  expect(status).toBe(201)
  const id = (body as { id?: unknown }).id
  if (typeof id !== 'string') throw new Error('the service gave no campaign id')
  return id
}

it('shows the campaign’s two rewards and the signed-in user’s share link', async () => {
  const campaignId = await createCampaign('Spring referral')
  const url = h.host.page('/account', {
    html: widgetPage(h.service, {
      attributes: { campaign: campaignId, 'user-id': 'alice', locale: 'en-US' },
    }),
  })
  const context = await h.newContext()
  const { page } = await h.open(context)
  await page.goto(url)
  await page.locator(READY_ROOT).waitFor()

  await expect
    .poll(() => page.locator('[data-part="headline"]').textContent())
    .toBe('Give €5, get $25')
  expect(await page.locator('[data-part="referrer-reward"]').textContent()).toContain('$25')
  expect(await page.locator('[data-part="referrer-reward"]').textContent()).not.toContain('€')
  expect(await page.locator('[data-part="referred-reward"]').textContent()).toContain('€5')
  expect(await page.locator('[data-part="test-badge"]').isVisible()).toBe(true)

  const link = page.locator('[data-part="link"]')
  await link.waitFor()
  const code = await h.linkCode('alice', campaignId) // idempotent: the link the panel got
  const expected = `${h.host.url}/?ref=${code}`
  expect(await link.inputValue()).toBe(expected)
  expect(await link.isEditable()).toBe(false)
  expect(await link.isVisible()).toBe(true)
  expect(await page.locator('[data-part="copy"]').isEnabled()).toBe(true)

  // The same link through the API, and the share links only ever carry http(s) or mailto.
  const fromApi = await page.evaluate(() =>
    (
      window as unknown as { Referral: { getLink(): Promise<{ code: string; url: string }> } }
    ).Referral.getLink(),
  )
  expect(fromApi).toEqual({ code, url: expected })
  const hrefs = await page
    .locator('[data-part="share"] a')
    .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''))
  expect(hrefs.length).toBeGreaterThanOrEqual(4)
  for (const href of hrefs) {
    expect(href).toMatch(/^(https:|mailto:)/)
    expect(href).toContain(encodeURIComponent(expected))
  }
})

it('shows a skeleton while loading; the link field appears only with the share URL in it', async () => {
  // The campaign and the link answer slowly.
  h.service.service.faults.set({ kind: 'slow', count: 2, delayMs: 700 })
  const url = h.host.page('/account', {
    html: widgetPage(h.service, { attributes: { 'user-id': 'alice' } }),
  })
  const context = await h.newContext()
  const { page } = await h.open(context)
  await page.goto(url)
  await page.locator('[data-part="root"][data-state="loading"]').waitFor()
  expect(await page.locator('[data-part="link-skeleton"]').isVisible()).toBe(true)
  expect(await page.locator('[data-part="link"]').count()).toBe(0)
  expect(await page.locator('[data-part="copy"]').isDisabled()).toBe(true)

  // Sampled on every frame: the first value the field is ever seen with is the share URL.
  const first = await page.waitForFunction(
    () => {
      const root = document.querySelector('[data-referral-widget]')?.shadowRoot
      const input = root?.querySelector<HTMLInputElement>('[data-part="link"]')
      return input ? input.value : false
    },
    undefined,
    { polling: 'raf' },
  )
  const code = await h.linkCode('alice')
  expect(await first.jsonValue()).toBe(`${h.host.url}/?ref=${code}`)
  expect(await page.locator('[data-part="link-skeleton"]').count()).toBe(0)
})

it('copies the link to the clipboard and announces it in the status region', async () => {
  const url = h.host.page('/account', {
    html: widgetPage(h.service, { attributes: { 'user-id': 'alice', locale: 'en-US' } }),
  })
  const context = await h.newContext()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.host.url })
  const { page } = await h.open(context)
  await page.goto(url)
  const link = page.locator('[data-part="link"]')
  await link.waitFor()
  const value = await link.inputValue()
  expect(value).toMatch(/\?ref=[A-Za-z0-9]{8,12}$/)

  const status = page.locator('[data-part="status"]')
  expect(await status.getAttribute('aria-live')).toBe('polite')
  expect(((await status.textContent()) ?? '').trim()).toBe('')
  await page.locator('[data-part="copy"]').click()
  await expect.poll(() => status.textContent(), FAST).toBe('Link copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value)
})

it('counts a visit through the link once, remembers it and cleans the address bar', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/landing', {
    html: widgetPage(h.service, { banner: true, attributes: { locale: 'en-US' } }),
  })
  const context = await h.newContext()
  const { page } = await h.open(context)
  await page.goto(`${url}?utm_source=mail&ref=${code}#pricing`)

  // The parameter leaves the address bar; the site's own parameters and hash stay as written.
  await expect.poll(() => page.url(), FAST).toBe(`${url}?utm_source=mail#pricing`)
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })
  await expect.poll(() => queueSize(page), FAST).toBe(0)

  // The referred visitor sees the banner with their reward.
  const banner = page.locator('[data-part="banner"]')
  await banner.waitFor()
  expect(await banner.textContent()).toContain('$10')
  const attribution = await callReferral(page, 'getAttribution')
  expect(attribution).toMatchObject({ code })

  // The same link again (another visit, a reload): no second click.
  await page.goto(`${url}?ref=${code}`)
  await expect.poll(() => page.url(), FAST).toBe(url)
  await waitForApi(page)
  await page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )
  await page.reload()
  await waitForApi(page)
  await page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )
  expect(await h.stats()).toMatchObject({ totalClicks: 1, totalConversions: 0 })
  const accepted = [...h.acceptedCounts().values()]
  expect(accepted).toEqual([1])
  // Nothing the widget stores holds the key itself.
  const stored = await storageEntries(page)
  expect(Object.keys(stored).every((key) => key.startsWith('referral:'))).toBe(true)
  expect(JSON.stringify(stored)).not.toContain('pk_test_acme')
})

it('converts a signup on a later page, with the call made through the stub before load', async () => {
  const code = await h.linkCode('alice')
  const landing = h.host.page('/landing', { html: widgetPage(h.service, { panel: false }) })
  // The sign-up success page calls the documented stub before the script tag has loaded.
  const welcome = h.host.page('/welcome', {
    html: widgetPage(h.service, {
      panel: false,
      before: `<script>${STUB}
Referral('track', 'signup', { userId: 'bob' })
window.__queuedBeforeLoad = Referral.q.length</script>`,
    }),
  })
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(`${landing}?ref=${code}`)
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1 })

  await page.goto(welcome)
  expect(
    await page.evaluate(
      () => (window as unknown as { __queuedBeforeLoad: number }).__queuedBeforeLoad,
    ),
  ).toBe(1)
  await expect
    .poll(() => h.stats(), FAST)
    .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  await expect.poll(() => queueSize(page), FAST).toBe(0)
  expect([...h.acceptedCounts().values()]).toEqual([1, 1])
  expect(log.console.filter((line) => line.startsWith('error'))).toEqual([])
})

it('follows the dark theme: data-theme="dark", and "auto" on a dark system', async () => {
  const luminance = (rgb: string) => {
    const [r = 0, g = 0, b = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number)
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
  }
  const colors = async (theme: string, colorScheme: 'light' | 'dark') => {
    const url = h.host.page(`/${theme}-${colorScheme}`, {
      html: widgetPage(h.service, { attributes: { theme, 'user-id': 'alice' } }),
    })
    const context = await h.newContext({ colorScheme })
    const { page } = await h.open(context)
    await page.goto(url)
    const root = page.locator(READY_ROOT)
    await root.waitFor()
    await page.locator('[data-part="link"]').waitFor()
    return root.evaluate((element) => {
      const style = getComputedStyle(element)
      return { background: style.backgroundColor, color: style.color }
    })
  }

  const dark = await colors('dark', 'light')
  expect(luminance(dark.background)).toBeLessThan(0.2)
  expect(luminance(dark.color)).toBeGreaterThan(0.8)
  const light = await colors('light', 'dark')
  expect(luminance(light.background)).toBeGreaterThan(0.8)
  const auto = await colors('auto', 'dark')
  expect(luminance(auto.background)).toBeLessThan(0.2)
})
