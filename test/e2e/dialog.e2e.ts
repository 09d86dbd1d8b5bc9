// Where the referrer is: the launcher for a signed-in user, the site's own buttons
// (`data-referral-open`), `Referral('open')` and the prompt after sign-up, each opening the panel as
// a modal dialog (focus moved in and back, Escape and the close button), with the timings a page
// gives them: a call before the script loads, a button added later, a body swapped.
import { expect, it } from 'vitest'
import { dialogPage, dialogState, heard, LAUNCHER, opened } from './support/dialog-page.ts'
import { FAST, useHarness } from './support/harness.ts'
import { callReferral, visitWithoutReload, waitForApi } from './support/in-page.ts'
import { holdFiles } from './support/kept-calls.ts'

const h = useHarness()

const page = (path: string, attributes: Record<string, string>, extra = '') =>
  dialogPage(h, path, attributes, extra)

it('a signed-in page with the launcher loads the launcher alone, asks the service nothing, and opens by keyboard', async () => {
  const url = page('/', { launcher: '', 'user-id': 'alice' })
  const { page: tab, log } = await h.open(await h.newContext())
  await tab.goto(url)
  await tab.locator(LAUNCHER).waitFor()
  await tab.waitForLoadState('networkidle')
  expect(h.service.requests.map((request) => request.path).sort()).toEqual([
    '/referral-widget-launcher.js',
    '/referral-widget.js',
  ])
  const button = tab.locator(LAUNCHER)
  expect(await button.getAttribute('type')).toBe('button')
  expect(await button.textContent()).toBe('Refer a friend')
  const box = await button.boundingBox()
  expect(box && box.width >= 24 && box.height >= 24).toBe(true)

  // Keyboard only: Tab reaches it, Enter opens the dialog with the link, Escape closes it.
  await tab.keyboard.press('Tab')
  await expect.poll(() => dialogState(tab).then((state) => state.focused), FAST).toBe('launcher')
  await tab.keyboard.press('Enter')
  await opened(tab)
  const shown = await dialogState(tab)
  expect(shown).toMatchObject({ open: true, modal: true, focusInside: true, dialogs: 1 })
  expect(shown.link).toMatch(/^http/)
  await tab.keyboard.press('Escape')
  // The dialog's close event comes a task after it closed.
  await expect.poll(() => heard(tab), FAST).toEqual(['open:false', 'close'])
  expect(await dialogState(tab)).toMatchObject({ open: false, focused: 'launcher' })
  // Named by the campaign's headline from now on.
  await expect.poll(() => button.textContent(), FAST).not.toBe('Refer a friend')
  expect(log.errors).toEqual([])
})

it('intent on the launcher asks for the tracking part and the UI file together, then the campaign and the link', async () => {
  const url = page('/together', { launcher: '', 'user-id': 'alice' })
  const context = await h.newContext()
  // The tracking part is held: the UI file must not wait for it.
  const tracking = await holdFiles(context)
  const { page: tab, log } = await h.open(context)
  await tab.goto(url)
  await tab.locator(LAUNCHER).hover()
  const asked = () => h.service.requests.map((request) => request.path)
  await expect.poll(asked, FAST).toContain('/referral-widget-ui.js')
  expect(asked().filter((path) => path.startsWith('/v1/'))).toEqual([])
  await tracking.release()
  await tab.locator(LAUNCHER).click()
  await opened(tab)
  expect(
    asked()
      .filter((path) => path.endsWith('.js'))
      .sort(),
  ).toEqual([
    '/referral-widget-launcher.js',
    '/referral-widget-tracking.js',
    '/referral-widget-ui.js',
    '/referral-widget.js',
  ])
  expect(log.errors).toEqual([])
})

it('no user, no launcher: identify() brings it, identify(null) takes it away', async () => {
  const url = page('/', { launcher: 'bottom-left' })
  const { page: tab } = await h.open(await h.newContext())
  await tab.goto(url)
  await tab.waitForLoadState('networkidle')
  expect(await tab.locator(LAUNCHER).count()).toBe(0)
  await tab.evaluate(() =>
    (window as unknown as { Referral: (...a: unknown[]) => void }).Referral('identify', 'bob'),
  )
  await tab.locator(LAUNCHER).waitFor()
  await tab.evaluate(() =>
    (window as unknown as { Referral: (...a: unknown[]) => void }).Referral('identify', null),
  )
  await tab.locator(LAUNCHER).waitFor({ state: 'detached' })
})

it("the site's own button, added later, opens the dialog; its close button gives the focus back", async () => {
  const url = page('/', { 'user-id': 'alice' })
  const { page: tab } = await h.open(await h.newContext())
  await tab.goto(url)
  await waitForApi(tab)
  await tab.evaluate(() => {
    const button = document.createElement('button')
    button.textContent = 'Invite friends'
    button.setAttribute('data-referral-open', '')
    document.querySelector('main')?.append(button)
  })
  await tab.getByText('Invite friends').click()
  await opened(tab)
  await tab.locator('[data-part="close"]').click()
  await expect.poll(() => dialogState(tab).then((state) => state.open), FAST).toBe(false)
  expect(await tab.evaluate(() => document.activeElement?.textContent)).toBe('Invite friends')
})

it('a page swapped without a reload keeps one launcher and one dialog; its own buttons open it', async () => {
  const first = page('/', { launcher: '', 'user-id': 'alice' })
  page('/next', { launcher: '', 'user-id': 'alice' }, '<button data-referral-open>Invite</button>')
  const { page: tab, log } = await h.open(await h.newContext())
  await tab.goto(first)
  await tab.locator(LAUNCHER).click()
  await opened(tab)
  await tab.keyboard.press('Escape')
  await expect.poll(() => dialogState(tab).then((state) => state.open), FAST).toBe(false)

  await visitWithoutReload(tab, '/next')
  await expect.poll(() => tab.locator(LAUNCHER).count(), FAST).toBe(1)
  await tab.getByText('Invite').click()
  await opened(tab)
  expect(await dialogState(tab)).toMatchObject({ modal: true, focusInside: true, dialogs: 1 })
  expect(await tab.locator(LAUNCHER).count()).toBe(1)
  await tab.keyboard.press('Escape')
  await expect
    .poll(() => tab.evaluate(() => document.activeElement?.textContent), FAST)
    .toBe('Invite')
  expect(log.errors).toEqual([])
})

const TIMINGS = ['before the loader runs', 'before the parts run', 'after getLink() ran'] as const
const CALLS = TIMINGS.flatMap((timing) =>
  (['open', 'prompt'] as const).map((method) => ({ method, timing })),
)

it.each(CALLS)('$method() called $timing opens the dialog with the link', async (call) => {
  const early = call.timing === 'before the loader runs'
  const url = page(
    `/${call.method}-${TIMINGS.indexOf(call.timing)}`,
    { 'user-id': 'erin' },
    early ? `<script>Referral('${call.method}')</script>` : '',
  )
  const context = await h.newContext()
  const held = call.timing === 'before the parts run' ? await holdFiles(context) : undefined
  const { page: tab, log } = await h.open(context)
  await tab.goto(url)
  await waitForApi(tab)
  // Here the link file came first: the UI file comes for the dialog alone.
  if (call.timing === 'after getLink() ran') await callReferral(tab, 'getLink')
  if (!early) await callReferral(tab, call.method)
  await held?.release()
  await opened(tab)
  await callReferral(tab, 'close')
  await expect.poll(() => heard(tab), FAST).toEqual([`open:${call.method === 'prompt'}`, 'close'])
  expect((await dialogState(tab)).open).toBe(false)
  expect(log.errors).toEqual([])
})

it('data-prompt="signup": the sign-up prompts that user once per campaign in this browser', async () => {
  const url = page('/', { prompt: 'signup' })
  const context = await h.newContext()
  const { page: tab } = await h.open(context)
  await tab.goto(url)
  await waitForApi(tab)
  await callReferral(tab, 'track', 'signup', { userId: 'carol' })
  await opened(tab)
  expect(await heard(tab)).toEqual(['open:true'])
  await tab.keyboard.press('Escape')
  await expect.poll(() => dialogState(tab).then((state) => state.open), FAST).toBe(false)

  // The next page: a prompt for carol is not shown again.
  await tab.goto(url)
  await waitForApi(tab)
  await callReferral(tab, 'identify', 'carol')
  await callReferral(tab, 'prompt')
  await tab.waitForLoadState('networkidle')
  expect((await dialogState(tab)).open).toBe(false)
  expect(await heard(tab)).toEqual([])
})

it('no prompt while consent is pending', async () => {
  const url = page(
    '/',
    { 'user-id': 'dave', consent: 'required' },
    "<script>Referral('prompt')</script>",
  )
  const { page: tab } = await h.open(await h.newContext())
  await tab.goto(url)
  await waitForApi(tab)
  await tab.waitForLoadState('networkidle')
  expect((await dialogState(tab)).open).toBe(false)
  expect(await heard(tab)).toEqual([])
})
