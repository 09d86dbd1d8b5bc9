// The QA demo page, as `npm start` serves it, in each engine: both referrer widgets ready, the
// share link opened as a new visitor (the banner shown in the visitor's frame, the click counted),
// and no uncaught error in the page or its frame of the same origin.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type DemoServer, startDemoServer } from '../e2e/support/demo-server.ts'
import { useEngine } from './support/harness.ts'
import { recorderPlugin } from './support/in-page.ts'

const h = useEngine()
let demo: DemoServer | undefined

beforeAll(async () => {
  demo = await startDemoServer([recorderPlugin])
})
afterAll(async () => {
  await demo?.close()
})

/** What the demo shows: each widget's panel state, the share link, and the campaign's clicks. */
const shown = (tab: Awaited<ReturnType<typeof h.visit>>) =>
  tab.evaluate(() => {
    const state = (root: ParentNode | null | undefined) =>
      root?.querySelector('[data-part="root"]')?.getAttribute('data-state') ?? null
    const frame = document.querySelector<HTMLIFrameElement>('iframe[title="Script-tag widget"]')
    const host = frame?.contentDocument?.querySelector('[data-referral-widget]')
    const preact = document.querySelector('.preact-widget')
    return {
      scriptTag: state(host?.shadowRoot),
      preact: state(preact?.shadowRoot ?? preact?.parentElement),
      link: document.querySelector<HTMLInputElement>('#share-link')?.value ?? '',
      clicks: document.querySelector('[data-testid="stat-clicks"]')?.textContent ?? null,
    }
  })

it('shows both widgets ready, opens the share link as a new visitor, and throws nothing', async () => {
  if (!demo) throw new Error('the demo server is not running')
  const tab = await h.visit(demo.url)
  await expect
    .poll(() => shown(tab), { timeout: 30_000 })
    .toMatchObject({ scriptTag: 'ready', preact: 'ready', link: expect.stringContaining('ref=') })
  const before = Number((await shown(tab)).clicks)
  await tab.evaluate(() => {
    const buttons = [...document.querySelectorAll('button')]
    buttons.find((button) => button.textContent?.includes('Open as a new visitor (frame)'))?.click()
  })
  await expect.poll(async () => Number((await shown(tab)).clicks)).toBe(before + 1)
})
