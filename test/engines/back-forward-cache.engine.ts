// The host's back/forward cache (WIDGET.md section 9), in each engine: a visitor goes from a page
// with the widget to another page of the site that runs it too, and presses Back. The page comes
// back from the cache, and carries on: what waited is sent, the arrival is not recorded again, the
// panel is ready. Firefox decides before `pagehide` whether it may keep a page, so a page that
// held the widget's Web Lock while idle (and let it go on `pagehide`) was never restored there.
import { expect, it } from 'vitest'
import type { WidgetPageOptions } from '../e2e/support/widget-page.ts'
import { leaveAndComeBack } from './support/back-forward.ts'
import { useEngine } from './support/harness.ts'
import { apiLoaded, call, enginePage, panel, queueSize } from './support/in-page.ts'

const h = useEngine()

const RESTORED = { restored: true, reasons: [] }

/** The page under test and the next one, both running the widget, both cacheable. */
function site(first: WidgetPageOptions) {
  return {
    first: h.host.page('/first', { html: enginePage(h.service, first), cacheable: true }),
    next: h.host.page('/next', {
      html: enginePage(h.service, { panel: false, title: 'Next' }),
      cacheable: true,
    }),
  }
}

async function visit(url: string) {
  const tab = await h.visit(url)
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  return tab
}

it('restores a quiet page when the next page runs the widget too', async () => {
  const pages = site({ panel: false })
  const tab = await visit(pages.first)
  expect(await leaveAndComeBack(tab, pages.next)).toEqual(RESTORED)
  expect(await queueSize(tab)).toBe(0)
})

it('restores an arrival by a referral link, twice, and counts its click once', async () => {
  const code = await h.linkCode('alice')
  const pages = site({ panel: false })
  const tab = await visit(`${pages.first}?ref=${code}`)
  await expect.poll(() => h.acceptedCounts().size).toBe(1)
  for (const time of [1, 2]) {
    expect(await leaveAndComeBack(tab, pages.next), `back ${time}`).toEqual(RESTORED)
  }
  expect(await call(tab, 'getAttribution')).toMatchObject({ code })
  await call(tab, 'flush')
  expect((await h.stats()).totalClicks).toBe(1)
})

it('restores a panel page with its panel ready', async () => {
  const pages = site({ attributes: { 'user-id': 'alice' } })
  const tab = await visit(pages.first)
  await expect.poll(async () => (await panel(tab)).link).toMatch(/\?ref=/)
  expect(await leaveAndComeBack(tab, pages.next)).toEqual(RESTORED)
  await expect
    .poll(() => panel(tab))
    .toMatchObject({ state: 'ready', link: expect.stringMatching(/\?ref=/) })
})

it('restores a page whose sign-ups waited while the service was unreachable, and each is accepted once', async () => {
  const pages = site({ panel: false })
  const tab = await visit(pages.first)
  h.unreachable = true
  for (const userId of ['away-0', 'away-1', 'away-2'])
    await call(tab, 'track', 'signup', { userId })
  await expect.poll(() => queueSize(tab)).toBe(3)
  await expect.poll(() => call(tab, 'flush').then(() => queueSize(tab))).toBe(3)
  h.unreachable = false

  expect(await leaveAndComeBack(tab, pages.next)).toEqual(RESTORED)
  await call(tab, 'flush')
  await expect.poll(() => queueSize(tab)).toBe(0)
  await expect.poll(() => h.acceptedCounts().size).toBe(3)
  expect([...h.acceptedCounts().values()]).toEqual([1, 1, 1])
})
