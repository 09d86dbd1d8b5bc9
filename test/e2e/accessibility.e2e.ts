// axe-core on the real panel and banner in each state a visitor can meet, and the panel by
// keyboard alone.
import { expect, it } from 'vitest'
import { axe, type Finding } from './support/axe.ts'
import { FAST, useHarness } from './support/harness.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

const serious = (findings: Finding[]) =>
  findings.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical')

const states = [
  {
    name: 'ready, light, with the link and the banner',
    attributes: { theme: 'light', 'user-id': 'alice' },
    ref: true,
    wait: '[data-part="link"]',
  },
  {
    name: 'ready, dark, with the link and the banner',
    attributes: { theme: 'dark', 'user-id': 'alice' },
    ref: true,
    wait: '[data-part="link"]',
  },
  {
    name: 'right to left (Arabic)',
    attributes: { locale: 'ar', 'user-id': 'alice' },
    ref: false,
    wait: '[data-part="link"]',
  },
  {
    name: 'signed out',
    attributes: {},
    ref: false,
    wait: '[data-part="sign-in"]',
  },
  {
    name: 'service unavailable',
    attributes: { 'user-id': 'alice' },
    ref: false,
    wait: '[data-part="root"][data-state="error"]',
    unavailable: true,
  },
] as const

it.each(states)('has no serious or critical axe finding: $name', async (state) => {
  const code = await h.linkCode('bob')
  if ('unavailable' in state) h.service.service.faults.set({ kind: 'unavailable', count: 5 })
  const url = h.host.page('/', {
    html: widgetPage(h.service, { banner: true, attributes: state.attributes }),
  })
  const context = await h.newContext()
  const { page } = await h.open(context)
  await page.goto(state.ref ? `${url}?ref=${code}` : url)
  await page.locator(state.wait).waitFor()
  if (state.ref) await page.locator('[data-part="banner"]').waitFor()

  const findings = await axe(page)
  expect(serious(findings), JSON.stringify(findings, null, 2)).toEqual([])
})

it('works by keyboard: Tab reaches the link then the copy button, Enter copies', async () => {
  const url = h.host.page('/', {
    html: widgetPage(h.service, {
      attributes: { 'user-id': 'alice' },
      before: '<a href="/">Home</a>',
    }),
  })
  const context = await h.newContext()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.host.url })
  const { page } = await h.open(context)
  await page.goto(url)
  const link = page.locator('[data-part="link"]')
  await link.waitFor()

  const focusedPart = () =>
    page.evaluate(() => {
      let active = document.activeElement
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
      return active?.getAttribute('data-part') ?? active?.tagName ?? null
    })
  const order: Array<string | null> = []
  for (let i = 0; i < 6 && order.at(-1) !== 'copy'; i++) {
    await page.keyboard.press('Tab')
    order.push(await focusedPart())
  }
  expect(order.filter((part) => part === 'link' || part === 'copy')).toEqual(['link', 'copy'])

  const copy = page.locator('[data-part="copy"]')
  const outline = await copy.evaluate((element) => getComputedStyle(element).outlineStyle)
  expect(outline, 'a visible focus ring').not.toBe('none')
  expect(await copy.getAttribute('type')).toBe('button')
  expect((await copy.textContent())?.trim()).toBe('Copy link')

  await page.keyboard.press('Enter')
  await expect
    .poll(() => page.locator('[data-part="status"]').textContent(), FAST)
    .toBe('Link copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await link.inputValue())
  expect(await page.locator('[data-part="status"]').getAttribute('role')).toBe('status')
})
