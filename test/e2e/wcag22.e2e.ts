// WCAG 2.2 AA, held in Chromium: axe-core's wcag2a, wcag2aa, wcag21aa and wcag22aa rules find
// nothing on the inline panel and banner, the launcher or the open dialog, light and dark; the
// keyboard-only journey through the launcher and the dialog; the launcher stepping aside from a
// focused element it would hide; no motion when the visitor asks for none; the page's scroll
// kept. docs/ACCESSIBILITY.md says which criterion each test holds.
import { expect, it } from 'vitest'
import { axe, WCAG22_AA } from './support/axe.ts'
import { dialogPage, dialogState, heard, LAUNCHER, opened } from './support/dialog-page.ts'
import { FAST, useHarness } from './support/harness.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

const THEMES = ['light', 'dark'] as const

it.each(THEMES)('the inline panel and the banner meet WCAG 2.2 AA (%s)', async (theme) => {
  const code = await h.linkCode('bob')
  const url = h.host.page('/', {
    html: widgetPage(h.service, { banner: true, attributes: { theme, 'user-id': 'alice' } }),
  })
  const { page } = await h.open(await h.newContext({ colorScheme: theme }))
  await page.goto(`${url}?ref=${code}`)
  await page.locator('[data-part="link"]').waitFor()
  await page.locator('[data-part="banner"]').waitFor()
  const findings = await axe(page, WCAG22_AA)
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([])
})

it.each(THEMES)('the launcher and the open dialog meet WCAG 2.2 AA (%s)', async (theme) => {
  const url = dialogPage(h, '/', { launcher: '', theme, 'user-id': 'alice' })
  const { page } = await h.open(await h.newContext({ colorScheme: theme }))
  await page.goto(url)
  await page.locator(LAUNCHER).waitFor()
  const closed = await axe(page, WCAG22_AA)
  expect(closed, JSON.stringify(closed, null, 2)).toEqual([])

  await page.locator(LAUNCHER).click()
  await opened(page)
  const open = await axe(page, WCAG22_AA)
  expect(open, JSON.stringify(open, null, 2)).toEqual([])
  // Named by its headline; every control at least 24 by 24 CSS px.
  const dialog = page.locator('dialog[data-part="dialog"]')
  const labelledBy = await dialog.getAttribute('aria-labelledby')
  expect(await page.locator(`#${labelledBy}`).textContent()).toMatch(/\S/)
  for (const control of await dialog.locator('button, a, input').all()) {
    const box = await control.boundingBox()
    expect(
      box && box.width >= 24 && box.height >= 24,
      await control.evaluate((e) => e.outerHTML),
    ).toBe(true)
  }
})

it('by keyboard alone: Tab to the launcher, open, copy, reach the share links, close, focus back', async () => {
  const url = dialogPage(h, '/', { launcher: '', 'user-id': 'alice' }, '<a href="/">Home</a>')
  const context = await h.newContext()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.host.url })
  const { page } = await h.open(context)
  await page.goto(url)
  await page.locator(LAUNCHER).waitFor()

  const focused = () => dialogState(page).then((state) => state.focused)
  for (let i = 0; i < 4 && (await focused()) !== 'launcher'; i++) await page.keyboard.press('Tab')
  expect(await focused()).toBe('launcher')
  await page.keyboard.press('Enter')
  await opened(page)
  expect(await dialogState(page)).toMatchObject({ modal: true, focusInside: true })

  // Tab goes round the dialog's controls and never to the page behind it.
  const seen: Array<string | null> = []
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab')
    const state = await dialogState(page)
    expect(state.focusInside || state.focused === 'BODY', `focus on ${state.focused}`).toBe(true)
    seen.push(state.focused)
    if (state.focused === 'copy') {
      await page.keyboard.press('Enter')
      await expect
        .poll(() => page.locator('[data-part="status"]').textContent(), FAST)
        .toBe('Link copied')
    }
  }
  // The close button (where the focus starts), the link, the copy button, the QR control and a
  // share link for each network.
  expect(seen).toEqual(expect.arrayContaining(['close', 'link', 'copy', 'qr', 'email', 'x']))
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    (await dialogState(page)).link,
  )
  await page.keyboard.press('Escape')
  await expect.poll(focused, FAST).toBe('launcher')
  await expect.poll(() => heard(page), FAST).toEqual(['open:false', 'close'])
})

it("steps aside while the page's focused element lies under it, and comes back after", async () => {
  const corner =
    '<a id="corner" href="/" style="position:fixed;right:24px;bottom:24px;padding:8px">Help</a>'
  const url = dialogPage(h, '/', { launcher: '', 'user-id': 'alice' }, corner)
  const { page } = await h.open(await h.newContext())
  await page.goto(url)
  const launcher = page.locator(LAUNCHER)
  await launcher.waitFor()
  const visibility = () => launcher.evaluate((button) => getComputedStyle(button).visibility)
  expect(await visibility()).toBe('visible')
  await page.locator('#corner').focus()
  expect(await visibility()).toBe('hidden')
  await page.locator('#corner').blur()
  await page.locator('h1').evaluate((title) => {
    title.tabIndex = -1
    ;(title as HTMLElement).focus()
  })
  expect(await visibility()).toBe('visible')
})

it('no motion under prefers-reduced-motion; the page keeps its scroll; RTL mirrors the corner', async () => {
  const tall = '<div style="height:3000px"></div>'
  const url = dialogPage(h, '/', { launcher: '', 'user-id': 'alice' }, tall)
  const animation = async (reducedMotion: 'reduce' | 'no-preference') => {
    const { page } = await h.open(await h.newContext({ reducedMotion }))
    await page.goto(url)
    await page.evaluate(() => scrollTo(0, 1200))
    await page.locator(LAUNCHER).click()
    await opened(page)
    const name = await page
      .locator('dialog[data-part="dialog"]')
      .evaluate((dialog) => getComputedStyle(dialog).animationName)
    await page.keyboard.press('Escape')
    await expect.poll(() => dialogState(page).then((state) => state.open), FAST).toBe(false)
    expect(await page.evaluate(() => scrollY)).toBe(1200)
    return name
  }
  expect(await animation('reduce')).toBe('none')
  expect(await animation('no-preference')).not.toBe('none')

  const rtl = h.host.page('/rtl', {
    html: widgetPage(h.service, {
      panel: false,
      attributes: { launcher: '', 'user-id': 'alice' },
    }).replace('<html lang="en">', '<html lang="ar" dir="rtl">'),
  })
  const { page } = await h.open(await h.newContext())
  await page.goto(rtl)
  const box = await page.locator(LAUNCHER).boundingBox()
  const width = await page.evaluate(() => innerWidth)
  expect(box && box.x + box.width < width / 2).toBe(true)
  expect(await page.locator(LAUNCHER).textContent()).toBe('ادعُ صديقًا')
})
