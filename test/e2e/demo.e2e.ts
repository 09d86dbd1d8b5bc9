// The QA demo page, started the way `npm start` starts it, driven through its own controls as a
// tester would: both referrer widgets live against the local service, the keys they refuse (said
// once per widget, with nothing sent), and every select's options shown in full.
import { expect, it } from 'vitest'
import {
  context,
  count,
  demo,
  log,
  page,
  preactWidget,
  requestRows,
  scriptFrame,
  stat,
  text,
  useDemoSession,
  widgetsReady,
} from './support/demo-session.ts'

useDemoSession()

interface Logged {
  requests: Array<{ seq: number; path: string; status: number }>
}
const serviceLog = async () => (await demo.api<Logged>('GET', '/demo-api/requests')).requests

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

// --- what a tester trips over ---------------------------------------------------------------

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

it("diagnoses the Preact widget in a panel of its own, and its queue view reads the widget's own keys", async () => {
  await widgetsReady()
  await page.getByRole('button', { name: 'Diagnose' }).click()
  const parts = page.getByTestId('diagnose-parts')
  await expect.poll(() => parts.textContent()).toMatch(/"reachable":true/)
  expect(await parts.textContent()).toMatch(/"mode":"test"/)
  // The referrer's own link is kept as plain text (`own`): shown as it is, never "unreadable".
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).some((key) => key.endsWith(':own'))))
    .toBe(true)
  expect(await page.getByTestId('queue-view').textContent()).not.toMatch(/Unreadable/)
})
