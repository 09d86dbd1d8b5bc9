// @vitest-environment happy-dom
// The referred visitor's banner (WIDGET.md section 3, `banner`): shown to a visitor who arrived
// through a referral link, with the referred reward, dismissible, and the dismissal remembered.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import { createWorld } from '../../test/support/harness.ts'
import type { StorageLike } from '../queue/storage.ts'
import { resetWarnings } from '../shared/log.ts'
import { mountBanner, type UiOptions } from './mount.ts'

const START = Date.UTC(2026, 0, 15, 12)
const HOSTILE = '<img src=x onerror=alert(1)>'
const DAY = 24 * 60 * 60 * 1000

type World = ReturnType<typeof createWorld>
type Core = ReturnType<World['tab']>
type TabOptions = Parameters<World['tab']>[0]

let world: World
let teardown: Array<() => void> = []

beforeEach(() => {
  vi.useFakeTimers({ now: START })
  resetWarnings()
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
  world = createWorld()
  teardown = []
})

afterEach(async () => {
  for (const step of teardown.reverse()) step()
  // Preact's effects wait for the next frame on a module-level queue: let it run on the fake
  // timers that hold it, or later tests' effects never run.
  await vi.advanceTimersByTimeAsync(100)
  document.body.replaceChildren()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

// --- helpers ---------------------------------------------------------------------------------

function open(options: TabOptions = {}): Core {
  const core = world.tab(options)
  teardown.push(() => core.destroy())
  return core
}

function mount(core: Core, options?: UiOptions): HTMLElement {
  const host = document.createElement('div')
  host.setAttribute('data-referral-banner', '')
  document.body.append(host)
  teardown.push(mountBanner(host, core, options))
  return host
}

function shadow(host: Element): ShadowRoot {
  if (!host.shadowRoot) throw new Error('the host has no shadow root')
  return host.shadowRoot
}

const banner = (host: Element) => shadow(host).querySelector<HTMLElement>('[data-part="banner"]')
/** The banner's sentence (the dismiss button's × is not part of it). */
const sentence = (host: Element) => banner(host)?.querySelector('p')?.textContent
const dismissButton = (host: Element) =>
  shadow(host).querySelector<HTMLButtonElement>('[data-part="dismiss"]')

async function createCampaign(fields: {
  name?: string
  referrer: { amount: number; currency: string }
  referred: { amount: number; currency: string }
}): Promise<string> {
  const response = await world.service.app.request('/v1/campaigns', {
    method: 'POST',
    headers: { Authorization: 'Bearer sk_test_acme', 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: fields.name ?? 'Spring referral',
      rewardTrigger: 'signup',
      referrerReward: { type: 'credit', ...fields.referrer },
      referredReward: { type: 'credit', ...fields.referred },
    }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

/** A link code that alice shares for a campaign. */
async function linkCode(campaignId = 'camp_acmeFriendsAndFamily'): Promise<string> {
  const response = await world.service.app.request('/v1/links', {
    method: 'POST',
    headers: { Authorization: 'Bearer pk_test_acme', 'Content-Type': 'application/json' },
    body: JSON.stringify({ campaignId, referrerId: 'alice' }),
  })
  return ((await response.json()) as { code: string }).code
}

/** A visitor who arrives on the shop through alice's link. */
async function arrive(options: TabOptions = {}, ui?: UiOptions) {
  const code = await linkCode(options.campaignId)
  const core = open({ href: `https://shop.test/pricing?ref=${code}`, ...options })
  const host = mount(core, ui)
  await settle()
  return { core, host, code }
}

// --- tests -----------------------------------------------------------------------------------

describe('who sees the banner', () => {
  it('a visitor who arrived through a link sees the referred reward', async () => {
    const { host } = await arrive()
    const shown = banner(host)
    expect(shown).not.toBeNull()
    expect(shown?.querySelector('p')?.textContent).toBe(
      'A friend invited you: sign up and get $10 credit',
    )
    expect(shown?.getAttribute('aria-label')).toBe('Acme friends & family')
  })

  it('the amount is the referred reward, not the referrer’s', async () => {
    const campaignId = await createCampaign({
      referrer: { amount: 25, currency: 'USD' },
      referred: { amount: 5, currency: 'USD' },
    })
    const { host } = await arrive({ campaignId })
    expect(sentence(host)).toBe('A friend invited you: sign up and get $5 credit')
  })

  it('a visitor who came on their own sees nothing', async () => {
    const core = open({ href: 'https://shop.test/pricing' })
    const host = mount(core)
    await settle()
    expect(banner(host)).toBeNull()
    expect(shadow(host).textContent).toBe('')
  })

  it('a visitor with a malformed code in the URL sees nothing', async () => {
    const core = open({ href: 'https://shop.test/?ref=<script>' })
    const host = mount(core)
    await settle()
    expect(banner(host)).toBeNull()
  })

  it('nothing while the campaign loads, then the banner', async () => {
    const code = await linkCode()
    const core = open({ href: `https://shop.test/?ref=${code}` })
    const host = mount(core)
    expect(banner(host)).toBeNull()
    await settle()
    expect(banner(host)).not.toBeNull()
  })

  it('nothing when there is no active campaign', async () => {
    const code = await linkCode()
    const core = open({ publicKey: 'pk_live_acme', href: `https://shop.test/?ref=${code}` })
    const host = mount(core)
    await settle()
    expect(banner(host)).toBeNull()
  })

  it('nothing when the campaign cannot be loaded', async () => {
    const code = await linkCode()
    world.faults.push({ kind: 'status', status: 503 })
    const core = open({ href: `https://shop.test/?ref=${code}` })
    const host = mount(core)
    await settle()
    expect(core.$campaign.get().status).toBe('error')
    expect(banner(host)).toBeNull()
  })

  it('still shown on a later page of the same visit (the code is remembered)', async () => {
    const storage = world.createMemoryStorage()
    await arrive({ storage })
    const later = open({ storage, href: 'https://shop.test/checkout' })
    const host = mount(later)
    await settle()
    expect(sentence(host)).toBe('A friend invited you: sign up and get $10 credit')
  })

  it('gone once the attribution window has passed', async () => {
    const storage = world.createMemoryStorage()
    await arrive({ storage })
    vi.setSystemTime(START + 31 * DAY)
    const later = open({ storage, href: 'https://shop.test/' })
    const host = mount(later)
    await settle()
    expect(banner(host)).toBeNull()
  })

  it('forget() hides it', async () => {
    const { core, host } = await arrive()
    expect(banner(host)).not.toBeNull()
    core.forget()
    await settle()
    expect(banner(host)).toBeNull()
  })
})

describe('dismissal', () => {
  it('the dismiss button closes the banner', async () => {
    const { host } = await arrive()
    const button = dismissButton(host)
    expect(button?.getAttribute('aria-label')).toBe('Dismiss')
    button?.click()
    await settle()
    expect(banner(host)).toBeNull()
  })

  it('is remembered: a new mount on the same storage stays dismissed', async () => {
    const storage = world.createMemoryStorage()
    const first = await arrive({ storage })
    dismissButton(first.host)?.click()
    await settle()

    const again = open({ storage, href: 'https://shop.test/' })
    const host = mount(again)
    await settle()
    expect(again.getAttribution()?.code).toBe(first.code) // the visitor is still attributed
    expect(banner(host)).toBeNull()
  })

  it('is remembered even when the visitor comes back through the same link', async () => {
    const storage = world.createMemoryStorage()
    const first = await arrive({ storage })
    dismissButton(first.host)?.click()
    await settle()

    const again = open({ storage, href: `https://shop.test/?ref=${first.code}` })
    const host = mount(again)
    await settle()
    expect(banner(host)).toBeNull()
  })

  it('another mount on the same page closes too', async () => {
    const { core, host } = await arrive()
    const second = mount(core)
    await settle()
    expect(banner(second)).not.toBeNull()
    dismissButton(host)?.click()
    await settle()
    expect(banner(second)).toBeNull()
  })

  it('dismissing on one site does not hide another key’s banner', async () => {
    const storage: StorageLike = world.createMemoryStorage()
    const first = await arrive({ storage })
    dismissButton(first.host)?.click()
    await settle()

    const globexCode = await (async () => {
      const response = await world.service.app.request('/v1/links', {
        method: 'POST',
        headers: { Authorization: 'Bearer pk_test_globex', 'Content-Type': 'application/json' },
        body: JSON.stringify({ campaignId: 'camp_globexInviteAFriend', referrerId: 'bob' }),
      })
      return ((await response.json()) as { code: string }).code
    })()
    const other = open({
      storage,
      publicKey: 'pk_test_globex',
      href: `https://shop.test/?ref=${globexCode}`,
    })
    const host = mount(other)
    await settle()
    expect(sentence(host)).toBe('A friend invited you: sign up and get €15 credit')
  })
})

describe('locale, direction, theme and text', () => {
  it('German with euros', async () => {
    const campaignId = await createCampaign({
      referrer: { amount: 20, currency: 'EUR' },
      referred: { amount: 15.5, currency: 'EUR' },
    })
    const { host } = await arrive({ campaignId, locale: 'de-DE' })
    expect(sentence(host)).toBe(
      'Du wurdest eingeladen: Melde dich an und erhalte 15,50\u00a0€ Guthaben',
    )
    expect(dismissButton(host)?.getAttribute('aria-label')).toBe('Schließen')
  })

  it('yen without decimals, in Japanese', async () => {
    const campaignId = await createCampaign({
      referrer: { amount: 1000, currency: 'JPY' },
      referred: { amount: 500, currency: 'JPY' },
    })
    const { host } = await arrive({ campaignId, locale: 'ja-JP' })
    expect(sentence(host)).toBe('友だちからの招待です：登録すると￥500分のクレジットがもらえます')
  })

  it('Arabic reads right to left', async () => {
    const { host } = await arrive({ locale: 'ar' })
    const shown = banner(host)
    expect(shown?.getAttribute('dir')).toBe('rtl')
    expect(shown?.getAttribute('lang')).toBe('ar')
    expect(shown?.querySelector('p')?.textContent).toMatch(
      /^دعاك صديق: سجّل واحصل على رصيد بقيمة .*(10|١٠)/,
    )
  })

  it('English reads left to right', async () => {
    const { host } = await arrive({ locale: 'en-GB' })
    expect(banner(host)?.getAttribute('dir')).toBe('ltr')
    expect(sentence(host)).toBe('A friend invited you: sign up and get US$10 credit')
  })

  it.each(['light', 'dark', 'auto'] as const)('carries the %s theme', async (theme) => {
    const { host } = await arrive({}, { theme })
    expect(banner(host)?.getAttribute('data-theme')).toBe(theme)
  })

  it('dark looks dark', async () => {
    const { host } = await arrive({ theme: 'dark' })
    const shown = banner(host)
    if (!shown) throw new Error('no banner')
    expect(getComputedStyle(shown).backgroundColor).toBe('#17181c')
  })

  it('the message can be overridden and still gets the amount', async () => {
    const { host } = await arrive({}, { messages: { banner: 'Welcome! {give} is waiting' } })
    expect(sentence(host)).toBe('Welcome! $10 is waiting')
  })

  it('a campaign name with markup stays text', async () => {
    const campaignId = await createCampaign({
      name: HOSTILE,
      referrer: { amount: 10, currency: 'USD' },
      referred: { amount: 10, currency: 'USD' },
    })
    const { host } = await arrive({ campaignId })
    expect(banner(host)?.getAttribute('aria-label')).toBe(HOSTILE)
    expect(shadow(host).querySelector('img')).toBeNull()
  })

  it('a message override with markup stays text', async () => {
    const { host } = await arrive({}, { messages: { banner: `${HOSTILE} {give}` } })
    expect(sentence(host)).toBe(`${HOSTILE} $10`)
    expect(shadow(host).querySelector('img')).toBeNull()
  })
})
