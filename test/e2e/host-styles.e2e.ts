// What the host page's CSS cannot do to the widget: hide it, shrink it, make it unusable, or
// reshape and overflow its text through inherited typography.
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { READY_ROOT } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

it('stays visible and usable under hostile host CSS', async () => {
  const hostileCss = `
* { all: unset !important; }
div { display: none !important; }
button, input, a { display: none !important; visibility: hidden !important; }
section, h2, ul, li, label { display: none !important; }
* { font-size: 0 !important; line-height: 0 !important; color: transparent !important;
    letter-spacing: -10px !important; text-transform: uppercase !important; }
[data-referral-widget] { font: 0/0 serif !important; color: transparent !important; }
`
  h.host.page('/hostile.css', { html: hostileCss, type: 'text/css; charset=utf-8' })
  const url = h.host.page('/', {
    html: widgetPage(h.service, {
      head: '<link rel="stylesheet" href="/hostile.css">',
      before: '<div id="probe">the site’s own content</div>',
      attributes: { 'user-id': 'alice' },
    }),
  })
  const context = await h.newContext()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.host.url })
  const { page } = await h.open(context)
  await page.goto(url)
  // The stylesheet did apply to the page itself.
  expect(
    await page.evaluate(
      () => getComputedStyle(document.querySelector('#probe') as Element).display,
    ),
  ).toBe('none')
  await page.locator(READY_ROOT).waitFor()

  const link = page.locator('[data-part="link"]')
  const copy = page.locator('[data-part="copy"]')
  await link.waitFor()
  expect(await copy.isVisible()).toBe(true)
  expect(await link.isVisible()).toBe(true)
  const box = await copy.boundingBox()
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(24)
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(24)
  const style = await copy.evaluate((element) => {
    const computed = getComputedStyle(element)
    return { fontSize: Number.parseFloat(computed.fontSize), color: computed.color }
  })
  expect(style.fontSize).toBeGreaterThanOrEqual(12)
  expect(style.color).not.toBe('rgba(0, 0, 0, 0)')

  // Usable: a real click (Playwright checks the button receives it) copies the link.
  await copy.click()
  await expect
    .poll(() => page.locator('[data-part="status"]').textContent(), FAST)
    .toBe('Link copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await link.inputValue())
})

it('keeps the host page’s inherited typography out of the panel’s text', async () => {
  // Ordinary site-wide rules on <body>: inherited properties cross a shadow boundary unless the
  // widget resets them, and these would reshape or overflow the panel's text.
  h.host.page('/site.css', {
    html: `body { letter-spacing: .25em; word-spacing: .5em; text-transform: uppercase;
  text-indent: 4em; text-shadow: 1px 1px 2px red; white-space: nowrap; }`,
    type: 'text/css',
  })
  const url = h.host.page('/', {
    html: widgetPage(h.service, {
      head: '<link rel="stylesheet" href="/site.css">',
      attributes: { 'user-id': 'alice', locale: 'en-US' },
    }),
  })
  const context = await h.newContext({ viewport: { width: 280, height: 640 } })
  const { page } = await h.open(context)
  await page.goto(url)
  await page.locator('[data-part="link"]').waitFor()

  const typography = await page.locator('[data-part="headline"]').evaluate((element) => {
    const style = getComputedStyle(element)
    return {
      letterSpacing: style.letterSpacing,
      wordSpacing: style.wordSpacing,
      textTransform: style.textTransform,
      textIndent: style.textIndent,
      textShadow: style.textShadow,
      whiteSpace: style.whiteSpace,
    }
  })
  expect(typography).toEqual({
    letterSpacing: 'normal',
    wordSpacing: '0px',
    textTransform: 'none',
    textIndent: '0px',
    textShadow: 'none',
    whiteSpace: 'normal',
  })
  const overflow = await page
    .locator(READY_ROOT)
    .evaluate((element) => element.scrollWidth - element.clientWidth)
  expect(overflow, 'the panel’s text overflows a 280 px column').toBeLessThanOrEqual(0)
})
