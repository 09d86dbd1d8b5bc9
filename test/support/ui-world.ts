// The set-up the tests of the panel, the banner and the Preact components share: fake time from a
// fixed instant, the in-process reference service (harness.ts), quiet consoles, widgets mounted in
// host elements and removed after each test; the panel's and the banner's parts, and campaigns
// created as a site's owner does with the secret key.
import { cleanup } from '@testing-library/preact'
import { afterEach, beforeEach, expect, type MockInstance, vi } from 'vitest'
import { resetWarnings } from '../../src/shared/log.ts'
import { messagesFor } from '../../src/ui/messages/index.ts'
import { mountBanner, mountPanel, type UiOptions } from '../../src/ui/mount.ts'
import { settle } from './dom.ts'
import { createWorld } from './harness.ts'

export const START = Date.UTC(2026, 0, 15, 12)
export const HOSTILE = '<img src=x onerror=alert(1)>'
export const EN = messagesFor('en')

export type World = ReturnType<typeof createWorld>
export type Core = ReturnType<World['tab']>
export type TabOptions = Parameters<World['tab']>[0]

/** The referrer's results as the service gives them (a service extension). */
export type Summary = NonNullable<ReturnType<Core['$summary']['get']>>

/** Puts `figures` in the core's summary store, as if the service had answered them. */
export const showSummary = (
  core: Core,
  figures: Partial<Summary> & { code: string },
  campaignId = 'camp_acmeFriendsAndFamily',
) =>
  (core.$summary as unknown as { set(value: Summary | null): void }).set({
    campaignId,
    clicks: 0,
    signups: 0,
    conversions: 0,
    rewardsEarned: { amount: 0, currency: 'USD' },
    recent: [],
    ...figures,
  })

export interface HappyDomWindow {
  happyDOM: { settings: { device: { prefersColorScheme: string } } }
}

/** The test's world: a new one in each test (a live binding, read it inside tests only). */
export let world: World
/** The console.error spy of the test (it prints nothing). */
export let errorSpy: MockInstance<typeof console.error>
/** What to undo after the test, undone last first. */
export const teardown: Array<() => void> = []

/** Registers the set-up for the file's tests: `world`, `errorSpy` and `teardown` new in each. */
export function useUiWorld() {
  beforeEach(() => {
    vi.useFakeTimers({ now: START })
    resetWarnings()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {})
    world = createWorld()
    teardown.length = 0
  })

  afterEach(async () => {
    cleanup()
    for (const step of teardown.splice(0).reverse()) step()
    // Preact schedules effects for the next frame on a module-level queue: let that frame come
    // while the fake timers that hold it are still installed, or later tests' effects never run.
    await vi.advanceTimersByTimeAsync(100)
    document.body.replaceChildren()
    ;(window as unknown as HappyDomWindow).happyDOM.settings.device.prefersColorScheme = 'light'
    vi.useRealTimers()
    vi.restoreAllMocks()
    vi.unstubAllGlobals()
  })
}

// --- tabs and hosts ----------------------------------------------------------------------------

/** A tab of the world, destroyed after the test. */
export function open(options: TabOptions = {}): Core {
  const core = world.tab(options)
  teardown.push(() => core.destroy())
  return core
}

/** Mounts a widget in a new host element with `attribute` at the end of the page. */
export function attach(
  attribute: string,
  mounter: typeof mountPanel,
  core: Core,
  options?: UiOptions,
): HTMLElement {
  const host = document.createElement('div')
  host.setAttribute(attribute, '')
  document.body.append(host)
  const unmount = mounter(host, core, options)
  teardown.push(unmount)
  return host
}

export const mountPanelHost = (core: Core, options?: UiOptions) =>
  attach('data-referral-widget', mountPanel, core, options)

export const mountBannerHost = (core: Core, options?: UiOptions) =>
  attach('data-referral-banner', mountBanner, core, options)

export function shadow(host: Element): ShadowRoot {
  const root = host.shadowRoot
  if (!root) throw new Error('the host has no shadow root')
  return root
}

// --- campaigns and links -----------------------------------------------------------------------

export interface CampaignFields {
  name?: string
  rewardTrigger?: string
  referrer: { amount: number; currency: string }
  referred: { amount: number; currency: string }
}

/** A new campaign of org_acme's (rewarded on signup unless told), created with `secretKey`. */
export async function createCampaign(secretKey: string, fields: CampaignFields): Promise<string> {
  const response = await world.service.app.request('/v1/campaigns', {
    method: 'POST',
    headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: fields.name ?? 'Spring referral',
      rewardTrigger: fields.rewardTrigger ?? 'signup',
      referrerReward: { type: 'credit', ...fields.referrer },
      referredReward: { type: 'credit', ...fields.referred },
    }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

/** A new campaign of org_acme's test mode. */
export const createTestCampaign = (fields: CampaignFields) => createCampaign('sk_test_acme', fields)

/** "First order" in org_acme's test mode, on `rewardTrigger`: 15 for the friend, 20 for alice. */
export const createFirstOrderCampaign = (rewardTrigger: string, currency = 'USD') =>
  createTestCampaign({
    name: 'First order',
    rewardTrigger,
    referrer: { amount: 20, currency },
    referred: { amount: 15, currency },
  })

/** A link code that alice shares for a campaign. */
export async function linkCode(campaignId = 'camp_acmeFriendsAndFamily'): Promise<string> {
  const response = await world.service.app.request('/v1/links', {
    method: 'POST',
    headers: { Authorization: 'Bearer pk_test_acme', 'Content-Type': 'application/json' },
    body: JSON.stringify({ campaignId, referrerId: 'alice' }),
  })
  return ((await response.json()) as { code: string }).code
}

// --- the panel ---------------------------------------------------------------------------------

export const part = (host: Element, name: string) =>
  shadow(host).querySelector<HTMLElement>(`[data-part="${name}"]`)

export function mustPart(host: Element, name: string): HTMLElement {
  const element = part(host, name)
  if (!element) throw new Error(`no [data-part="${name}"] in the panel`)
  return element
}

export const text = (host: Element, name: string) => mustPart(host, name).textContent
export const rootOf = (host: Element) => mustPart(host, 'root')
export const copyButton = (host: Element) => mustPart(host, 'copy') as HTMLButtonElement
export const linkInput = (host: Element) => part(host, 'link') as HTMLInputElement | null

/** Every href in the panel. */
export const hrefs = (root: ParentNode) =>
  Array.from(root.querySelectorAll('[href]'), (element) => element.getAttribute('href') ?? '')

/** A ready panel with alice's link, and the link the service made for her. */
export async function readyPanel(options: TabOptions = {}, ui?: UiOptions) {
  const core = open({ userId: 'alice', ...options })
  const host = mountPanelHost(core, ui)
  await settle()
  const link = await core.getLink()
  return { core, host, link }
}

// --- the banner --------------------------------------------------------------------------------

export const banner = (host: Element) =>
  shadow(host).querySelector<HTMLElement>('[data-part="banner"]')
/** The banner's sentence (the dismiss button's × is not part of it). */
export const sentence = (host: Element) => banner(host)?.querySelector('p')?.textContent
export const dismissButton = (host: Element) =>
  shadow(host).querySelector<HTMLButtonElement>('[data-part="dismiss"]')

/** A visitor who arrives on the shop through alice's link. */
export async function arrive(options: TabOptions = {}, ui?: UiOptions) {
  const code = await linkCode(options.campaignId)
  const core = open({ href: `https://shop.test/pricing?ref=${code}`, ...options })
  const host = mountBannerHost(core, ui)
  await settle()
  return { core, host, code }
}
