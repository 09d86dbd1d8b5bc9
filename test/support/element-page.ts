// The page the tests of <referral-widget> (src/custom-element*.test.ts) run in: fake time from a
// fixed instant, the in-process service behind the page's fetch, an empty localStorage and
// address bar, quiet consoles; every element removed (its core released) after each test.
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest'
// Defines <referral-widget>, as a page that imports the module does.
import type { ReferralWidgetElement } from '../../src/custom-element.ts'
import '../../src/custom-element.ts'
import { resetWarnings } from '../../src/shared/log.ts'
import { API, createWorld } from './harness.ts'

const START = Date.UTC(2026, 0, 15, 12)
export const MINUTE = 60 * 1000

type World = ReturnType<typeof createWorld>

/** This test's service and the requests it received: a new one before each test. */
export let world: World
let errorSpy: MockInstance<typeof console.error>

/** Registers the set-up for the file's tests. */
export function useElementPage() {
  beforeEach(() => {
    vi.useFakeTimers({ now: START })
    resetWarnings()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {})
    world = createWorld()
    vi.stubGlobal('fetch', vi.fn(world.fetch))
    localStorage.clear()
    history.replaceState(null, '', '/')
  })

  afterEach(async () => {
    document.body.replaceChildren() // disconnects every element: their cores are released
    // Preact's effects wait for the next frame on a module-level queue: let it run on the fake
    // timers that hold it, or later tests' effects never run.
    await vi.advanceTimersByTimeAsync(100)
    localStorage.clear()
    vi.useRealTimers()
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })
}

export function element(attributes: Record<string, string>): ReferralWidgetElement {
  const widget = document.createElement('referral-widget')
  for (const [name, value] of Object.entries(attributes)) widget.setAttribute(name, value)
  return widget
}

/** Puts an element on the page, as a page's own markup or framework would. */
export function connect(attributes: Record<string, string>): ReferralWidgetElement {
  const widget = element({ 'public-key': 'pk_test_acme', 'api-base': API, ...attributes })
  document.body.append(widget)
  return widget
}

export const part = (host: Element, name: string) =>
  host.shadowRoot?.querySelector<HTMLElement>(`[data-part="${name}"]`) ?? null

export const count = (prefix: string) =>
  world.sent.filter((request) => request.path.startsWith(prefix)).length

export const referralErrors = () =>
  errorSpy.mock.calls.map((call) => String(call[0])).filter((text) => text.startsWith('[referral]'))

export async function createCampaign(referrer: number, referred: number, currency: string) {
  const response = await world.service.app.request('/v1/campaigns', {
    method: 'POST',
    headers: { Authorization: 'Bearer sk_test_acme', 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Element campaign',
      rewardTrigger: 'signup',
      referrerReward: { type: 'credit', amount: referrer, currency },
      referredReward: { type: 'credit', amount: referred, currency },
    }),
  })
  return ((await response.json()) as { id: string }).id
}
