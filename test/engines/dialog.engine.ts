// The panel where the referrer is, in each engine: the launcher reached and used by keyboard alone
// (Tab to it, Enter, the dialog's controls with the focus kept inside, Escape, the focus back on
// the launcher), and the prompt after this browser's own sign-up, once per user and campaign.
import { expect, it } from 'vitest'
import { STUB } from '../e2e/support/widget-page.ts'
import type { Tab } from './support/engine.ts'
import { useEngine } from './support/harness.ts'
import { call, enginePage, pageErrors } from './support/in-page.ts'

const h = useEngine()

/** A page with the stub (recording open events), the tag and no inline panel. */
const sitePage = (path: string, attributes: Record<string, string>) =>
  h.host.page(path, {
    html: enginePage(h.service, {
      panel: false,
      attributes,
      before: `<script>${STUB};Referral('on','open',function(e){(window.heard=window.heard||[]).push(e.prompted)})</script>`,
    }),
  })

/** The dialog, the launcher and the focused element (through shadow roots). */
const state = (tab: Tab) =>
  tab.evaluate(() => {
    const dialog = document
      .querySelector('[data-referral-dialog]')
      ?.shadowRoot?.querySelector('dialog')
    let active = document.activeElement
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
    return {
      open: dialog?.open === true,
      focusInside: !!dialog && !!active && dialog.contains(active),
      focused: active?.getAttribute('data-part') || active?.tagName || null,
      link: dialog?.querySelector('input')?.value ?? null,
      launchers: document.querySelectorAll('[data-referral-launcher]').length,
      heard: ((window as unknown as { heard?: boolean[] }).heard ?? []).length,
    }
  })

it('by keyboard alone: Tab to the launcher, Enter opens the dialog, the focus stays in, Escape gives it back', async () => {
  const tab = await h.visit(sitePage('/', { launcher: '', 'user-id': 'alice' }))
  await expect.poll(() => state(tab).then((now) => now.launchers)).toBe(1)
  for (let i = 0; i < 5 && (await state(tab)).focused !== 'launcher'; i++) await tab.press('Tab')
  expect((await state(tab)).focused).toBe('launcher')

  await tab.press('Enter')
  await expect
    .poll(() => state(tab))
    .toMatchObject({ open: true, focusInside: true, link: expect.stringMatching(/\?ref=/) })
  const seen = new Set<string | null>()
  // Through the dialog's controls (link, copy, QR, the share links), never to the page behind it
  // (past the last one an engine may go to its own toolbar: the page sees its body focused).
  for (let i = 0; i < 14; i++) {
    await tab.press('Tab')
    const now = await state(tab)
    expect(now.focusInside || now.focused === 'BODY', `focus on ${now.focused}`).toBe(true)
    seen.add(now.focused)
  }
  expect([...seen]).toEqual(expect.arrayContaining(['link', 'copy']))

  await tab.press('Escape')
  await expect.poll(() => state(tab)).toMatchObject({ open: false, focused: 'launcher' })
  expect(await pageErrors(tab)).toEqual([])
})

it('data-prompt="signup" prompts the new user once: a later prompt() for them opens nothing', async () => {
  const url = sitePage('/signup', { prompt: 'signup' })
  const tab = await h.visit(url)
  await call(tab, 'track', 'signup', { userId: 'carol' })
  await expect
    .poll(() => state(tab))
    .toMatchObject({ open: true, focusInside: true, link: expect.stringMatching(/\?ref=/) })
  await tab.press('Escape')
  await expect.poll(() => state(tab).then((now) => now.open)).toBe(false)

  await tab.reload()
  await call(tab, 'identify', 'carol')
  await call(tab, 'prompt')
  // The campaign and carol's link are known once getLink() settles: the prompt has decided.
  expect(await call(tab, 'getLink')).toMatchObject({ url: expect.stringMatching(/\?ref=/) })
  expect(await state(tab)).toMatchObject({ open: false, heard: 0 })
  expect(await pageErrors(tab)).toEqual([])
})
