// @vitest-environment happy-dom
// The referrer's panel as a visitor and QA see it (WIDGET.md section 3): every state, locale
// formatting, themes, the test badge, copying, share links and hostile strings. The panel runs
// against the in-process reference service (test/support/harness.ts) with fake time.
import { cleanup, render } from '@testing-library/preact'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import { createWorld } from '../../test/support/harness.ts'
import { createStores } from '../core/stores.ts'
import { SEND_DELAY_MS } from '../queue/queue.ts'
import { resetWarnings } from '../shared/log.ts'
import { messagesFor } from './messages/index.ts'
import { mountPanel, type UiOptions } from './mount.ts'
import { Panel, type UiSettings } from './Panel.tsx'

const START = Date.UTC(2026, 0, 15, 12)
const HOSTILE = '<img src=x onerror=alert(1)>'
const EN = messagesFor('en')

type World = ReturnType<typeof createWorld>
type Core = ReturnType<World['tab']>
type TabOptions = Parameters<World['tab']>[0]

interface HappyDomWindow {
  happyDOM: { settings: { device: { prefersColorScheme: string } } }
}

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
  cleanup()
  // Preact schedules effects for the next frame on a module-level queue: let that frame come
  // while the fake timers that hold it are still installed, or later tests' effects never run.
  await vi.advanceTimersByTimeAsync(100)
  document.body.replaceChildren()
  ;(window as unknown as HappyDomWindow).happyDOM.settings.device.prefersColorScheme = 'light'
  vi.useRealTimers()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

// --- helpers ---------------------------------------------------------------------------------

function open(options: TabOptions = {}): Core {
  const core = world.tab(options)
  teardown.push(() => core.destroy())
  return core
}

function mount(core: Core, options?: UiOptions): HTMLElement {
  const host = document.createElement('div')
  host.setAttribute('data-referral-widget', '')
  document.body.append(host)
  const unmount = mountPanel(host, core, options)
  teardown.push(unmount)
  return host
}

function shadow(host: Element): ShadowRoot {
  const root = host.shadowRoot
  if (!root) throw new Error('the host has no shadow root')
  return root
}

const part = (host: Element, name: string) =>
  shadow(host).querySelector<HTMLElement>(`[data-part="${name}"]`)

function mustPart(host: Element, name: string): HTMLElement {
  const element = part(host, name)
  if (!element) throw new Error(`no [data-part="${name}"] in the panel`)
  return element
}

const text = (host: Element, name: string) => mustPart(host, name).textContent
const rootOf = (host: Element) => mustPart(host, 'root')
const copyButton = (host: Element) => mustPart(host, 'copy') as HTMLButtonElement
const linkInput = (host: Element) => part(host, 'link') as HTMLInputElement | null

/** Every href in the panel. */
const hrefs = (root: ParentNode) =>
  Array.from(root.querySelectorAll('[href]'), (element) => element.getAttribute('href') ?? '')

async function createCampaign(
  secretKey: string,
  fields: {
    name?: string
    referrer: { amount: number; currency: string }
    referred: { amount: number; currency: string }
  },
): Promise<string> {
  const response = await world.service.app.request('/v1/campaigns', {
    method: 'POST',
    headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
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

/** A ready panel with alice's link, and the link the service made for her. */
async function readyPanel(options: TabOptions = {}, ui?: UiOptions) {
  const core = open({ userId: 'alice', ...options })
  const host = mount(core, ui)
  await settle()
  const link = await core.getLink()
  return { core, host, link }
}

// --- states ----------------------------------------------------------------------------------

describe('states', () => {
  it('loading: a skeleton stands in for the headline and the link, and copy is disabled', () => {
    const core = open({ userId: 'alice' })
    const host = mount(core)

    const root = rootOf(host)
    expect(root.getAttribute('data-state')).toBe('loading')
    expect(root.getAttribute('aria-busy')).toBe('true')
    expect(part(host, 'headline')).toBeNull()
    expect(part(host, 'headline-skeleton')).not.toBeNull()
    expect(linkInput(host)).toBeNull()
    expect(part(host, 'link-skeleton')).not.toBeNull()
    expect(copyButton(host).disabled).toBe(true)
    expect(part(host, 'share')).toBeNull()
  })

  it('ready: the headline, both rewards and the share URL in a read-only input', async () => {
    const { host, link } = await readyPanel()

    const root = rootOf(host)
    expect(root.getAttribute('data-state')).toBe('ready')
    expect(root.getAttribute('aria-busy')).toBe('false')
    expect(text(host, 'headline')).toBe('Give $10, get $10')
    expect(text(host, 'referrer-reward')).toBe('You get $10 credit')
    expect(text(host, 'referred-reward')).toBe('Your friend gets $10 credit')
    const input = linkInput(host)
    expect(input?.value).toBe(link.url)
    expect(link.url).toMatch(/^https:\/\/shop\.test\/\?ref=[A-Za-z0-9]{8,12}$/)
    expect(input?.readOnly).toBe(true)
    expect(part(host, 'link-skeleton')).toBeNull()
    expect(copyButton(host).disabled).toBe(false)
  })

  it('the link input appears only once its value is the share URL', async () => {
    const core = open({ userId: 'alice' })
    const host = mount(core)
    const seen: string[] = []
    // Whatever renders in between, an input never shows anything but the final URL.
    for (let i = 0; i < 30; i++) {
      const input = linkInput(host)
      if (input) seen.push(input.value)
      await vi.advanceTimersByTimeAsync(5)
    }
    const link = await core.getLink()
    expect(seen.length).toBeGreaterThan(0)
    expect(new Set(seen)).toEqual(new Set([link.url]))
  })

  it('ready without a signed-in user: rewards and a sign-in note, no link yet', async () => {
    const core = open()
    const host = mount(core)
    await settle()

    expect(rootOf(host).getAttribute('data-state')).toBe('ready')
    expect(text(host, 'headline')).toBe('Give $10, get $10')
    expect(text(host, 'sign-in')).toBe(EN.signIn)
    expect(linkInput(host)).toBeNull()
    expect(part(host, 'copy')).toBeNull()

    core.identify('alice')
    await settle()
    expect(linkInput(host)?.value).toBe((await core.getLink()).url)
    expect(part(host, 'sign-in')).toBeNull()
  })

  it('empty: with no active campaign the panel is empty and takes no space', async () => {
    // Live mode of acme has no campaign at all.
    const core = open({ publicKey: 'pk_live_acme', userId: 'alice' })
    const host = mount(core)
    await settle()

    const root = rootOf(host)
    expect(root.getAttribute('data-state')).toBe('empty')
    expect(root.childElementCount).toBe(0)
    expect(root.textContent).toBe('')
    expect(getComputedStyle(root).display).toBe('none')
  })

  it('empty: a campaign id the service does not know shows nothing either', async () => {
    const core = open({ campaignId: 'camp_doesNotExist0000000' })
    const host = mount(core)
    await settle()

    expect(rootOf(host).getAttribute('data-state')).toBe('empty')
    expect(getComputedStyle(rootOf(host)).display).toBe('none')
  })

  it('a ready panel is displayed (the empty rule hides only the empty state)', async () => {
    const { host } = await readyPanel()
    expect(getComputedStyle(rootOf(host)).display).not.toBe('none')
  })

  it('error: a short human sentence, announced, with no technical detail', async () => {
    world.faults.push({
      kind: 'status',
      status: 503,
      body: {
        error: { type: 'api_error', code: 'upstream_down', message: 'pg: connection reset' },
      },
    })
    const core = open({ userId: 'alice' })
    const host = mount(core)
    await settle()

    const root = rootOf(host)
    expect(root.getAttribute('data-state')).toBe('error')
    expect(root.getAttribute('role')).toBe('alert')
    expect(root.textContent).toBe('Referral rewards are not available right now.')
    expect(root.textContent).not.toMatch(/503|pg:|upstream|ApiError/)
    expect(linkInput(host)).toBeNull()
    expect(part(host, 'copy')).toBeNull()
  })

  it('the error sentence follows the locale', async () => {
    world.faults.push({ kind: 'status', status: 500 })
    const core = open({ locale: 'de-DE' })
    const host = mount(core)
    await settle()
    expect(rootOf(host).textContent).toBe('Empfehlungsprämien sind gerade nicht verfügbar.')
  })

  it('unmounting removes the panel', async () => {
    const core = open()
    const host = document.createElement('div')
    document.body.append(host)
    const unmount = mountPanel(host, core)
    await settle()
    expect(part(host, 'root')).not.toBeNull()
    unmount()
    expect(part(host, 'root')).toBeNull()
    expect(shadow(host).textContent).toBe('')
  })

  it('renders in an open shadow root, so host CSS cannot reach it', async () => {
    const { host } = await readyPanel()
    expect(host.shadowRoot?.mode).toBe('open')
    // Nothing in the light DOM: the page's selectors find nothing to style.
    expect(host.children).toHaveLength(0)
    expect(document.querySelector('[data-part="root"]')).toBeNull()
  })
})

// --- status notes ----------------------------------------------------------------------------

describe('status', () => {
  it('is a polite live region, empty when nothing is waiting', async () => {
    const { host } = await readyPanel()
    const status = mustPart(host, 'status')
    expect(status.getAttribute('aria-live')).toBe('polite')
    expect(status.getAttribute('role')).toBe('status')
    expect(status.textContent).toBe('')
  })

  it('a quiet note while events wait offline, gone once they are sent', async () => {
    const { core, host } = await readyPanel()
    world.setOnline(false)
    core.track('signup', { userId: 'bob' })
    await settle()

    expect(core.queueSize()).toBe(1)
    expect(text(host, 'status')).toBe(
      'You are offline. 1 referral action will be sent when you are back.',
    )
    core.track('signup', { userId: 'carol' })
    await settle()
    expect(text(host, 'status')).toBe(
      'You are offline. 2 referral actions will be sent when you are back.',
    )
    expect(rootOf(host).getAttribute('data-state')).toBe('ready')

    world.setOnline(true)
    await settle()
    expect(core.queueSize()).toBe(0)
    expect(text(host, 'status')).toBe('')
  })

  it('no offline note when nothing is waiting', async () => {
    const { core, host } = await readyPanel()
    world.setOnline(false)
    core.forget() // refreshes the connection state with an empty queue
    await settle()
    expect(text(host, 'status')).toBe('')
  })

  it('a quiet note while rate-limited, gone when Retry-After has passed', async () => {
    const { core, host } = await readyPanel()
    world.faults.push({ kind: 'status', status: 429, headers: { 'Retry-After': '30' } })
    core.track('signup', { userId: 'bob' })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS) // sent once the coalescing window ends
    await settle()
    expect(world.eventRequests().map((request) => request.status)).toEqual([429])

    expect(core.queueSize()).toBe(1)
    expect(text(host, 'status')).toBe('Busy right now. 1 referral action will be sent shortly.')

    await vi.advanceTimersByTimeAsync(30_000)
    await settle()
    expect(core.queueSize()).toBe(0)
    expect(text(host, 'status')).toBe('')
  })
})

// --- locales ---------------------------------------------------------------------------------

describe('locale formatting', () => {
  it('German with euros: comma decimals, the sign after the amount, German text', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 20, currency: 'EUR' },
      referred: { amount: 15.5, currency: 'EUR' },
    })
    const { host } = await readyPanel({ campaignId, locale: 'de-DE' })

    expect(text(host, 'headline')).toBe('Schenke 15,50\u00a0€, erhalte 20\u00a0€')
    expect(text(host, 'referrer-reward')).toBe('Du erhältst 20\u00a0€ Guthaben')
    expect(text(host, 'referred-reward')).toBe('Deine Freunde erhalten 15,50\u00a0€ Guthaben')
    expect(copyButton(host).textContent).toBe('Link kopieren')
    expect(rootOf(host).getAttribute('lang')).toBe('de-DE')
    expect(rootOf(host).getAttribute('dir')).toBe('ltr')
  })

  it('yen has no minor unit: no decimals in Japanese', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 1000, currency: 'JPY' },
      referred: { amount: 500, currency: 'JPY' },
    })
    const { host } = await readyPanel({ campaignId, locale: 'ja-JP' })

    expect(text(host, 'headline')).toBe('友だちに￥500、あなたに￥1,000')
    expect(text(host, 'referrer-reward')).toBe('あなたは￥1,000分のクレジットを獲得')
    expect(rootOf(host).textContent).not.toMatch(/\.\d\d/)
  })

  it('yen in English keeps no decimals either', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 1000, currency: 'JPY' },
      referred: { amount: 500, currency: 'JPY' },
    })
    const { host } = await readyPanel({ campaignId, locale: 'en-US' })
    expect(text(host, 'headline')).toBe('Give ¥500, get ¥1,000')
  })

  it('a fractional amount in dollars shows its cents', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 12.5, currency: 'USD' },
      referred: { amount: 5, currency: 'USD' },
    })
    const { host } = await readyPanel({ campaignId, locale: 'en-US' })
    expect(text(host, 'headline')).toBe('Give $5, get $12.50')
  })

  it('Arabic: right to left, Arabic text and the amount', async () => {
    const { host } = await readyPanel({ locale: 'ar' })

    const root = rootOf(host)
    expect(root.getAttribute('dir')).toBe('rtl')
    expect(root.getAttribute('lang')).toBe('ar')
    const headline = text(host, 'headline') ?? ''
    expect(headline).toMatch(/^امنح .+ واحصل على .+$/)
    expect(headline).toContain('US$')
    expect(headline).toMatch(/10|١٠/)
    expect(copyButton(host).textContent).toBe('نسخ الرابط')
  })

  it('Arabic (Egypt) amounts use Arabic-Indic digits, still right to left', async () => {
    const { host } = await readyPanel({ locale: 'ar-EG' })
    expect(rootOf(host).getAttribute('dir')).toBe('rtl')
    expect(text(host, 'referrer-reward')).toContain('١٠')
  })

  it('the mount option locale overrides the core locale', async () => {
    const { host } = await readyPanel({ locale: 'en-US' }, { locale: 'fr-FR' })
    expect(text(host, 'headline')).toBe('Offrez 10\u00a0$US, recevez 10\u00a0$US')
    expect(rootOf(host).getAttribute('lang')).toBe('fr-FR')
  })

  it('an unknown language falls back to English text with local number formatting', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 1234.5, currency: 'EUR' },
      referred: { amount: 10, currency: 'EUR' },
    })
    const { host } = await readyPanel({ campaignId, locale: 'sv-SE' })
    expect(text(host, 'referrer-reward')).toBe('You get 1\u00a0234,50\u00a0€ credit')
  })
})

// --- messages --------------------------------------------------------------------------------

describe('messages', () => {
  it('a host can override one message and keep the rest', async () => {
    const { host } = await readyPanel({}, { messages: { copy: 'Grab it' } })
    expect(copyButton(host).textContent).toBe('Grab it')
    expect(text(host, 'headline')).toBe('Give $10, get $10')
  })

  it('an overridden template still gets the amounts', async () => {
    const { host } = await readyPanel({}, { messages: { headline: 'Invite & earn {get}' } })
    expect(text(host, 'headline')).toBe('Invite & earn $10')
  })

  it('overrides apply on top of the locale', async () => {
    const { host } = await readyPanel({ locale: 'de' }, { messages: { copy: 'Kopieren!' } })
    expect(copyButton(host).textContent).toBe('Kopieren!')
    expect(text(host, 'referrer-reward')).toBe('Du erhältst 10\u00a0$ Guthaben')
  })
})

// --- themes ----------------------------------------------------------------------------------

describe('themes', () => {
  const background = (host: Element) => getComputedStyle(rootOf(host)).backgroundColor

  it('defaults to auto', async () => {
    const { host } = await readyPanel()
    expect(rootOf(host).getAttribute('data-theme')).toBe('auto')
  })

  it.each(['light', 'dark', 'auto'] as const)('the %s theme is set on the root', async (theme) => {
    const { host } = await readyPanel({ theme })
    expect(rootOf(host).getAttribute('data-theme')).toBe(theme)
  })

  it('dark looks dark and light looks light', async () => {
    const dark = await readyPanel({ theme: 'dark' })
    const light = mount(dark.core, { theme: 'light' })
    await settle()
    expect(background(dark.host)).toBe('#17181c')
    expect(background(light)).toBe('#ffffff')
  })

  it.each([
    ['light', '#ffffff'],
    ['dark', '#17181c'],
  ])('auto follows prefers-color-scheme: %s', async (scheme, color) => {
    ;(window as unknown as HappyDomWindow).happyDOM.settings.device.prefersColorScheme = scheme
    const { host } = await readyPanel({ theme: 'auto' })
    expect(background(host)).toBe(color)
  })

  it('an explicit light theme stays light when the system prefers dark', async () => {
    ;(window as unknown as HappyDomWindow).happyDOM.settings.device.prefersColorScheme = 'dark'
    const { host } = await readyPanel({ theme: 'light' })
    expect(background(host)).toBe('#ffffff')
  })

  it('switching the theme re-renders the same panel in place', async () => {
    const core = open({ userId: 'alice' })
    const host = document.createElement('div')
    document.body.append(host)
    mountPanel(host, core, { theme: 'dark' })
    await settle()
    expect(rootOf(host).getAttribute('data-theme')).toBe('dark')

    const unmount = mountPanel(host, core, { theme: 'light' })
    teardown.push(unmount)
    await settle()
    expect(shadow(host).querySelectorAll('[data-part="root"]')).toHaveLength(1)
    expect(rootOf(host).getAttribute('data-theme')).toBe('light')
    expect(background(host)).toBe('#ffffff')
  })
})

// --- test badge ------------------------------------------------------------------------------

describe('test badge', () => {
  it('shows with a pk_test_ key', async () => {
    const { host } = await readyPanel()
    expect(text(host, 'test-badge')).toBe('Test mode')
  })

  it('shows while loading too, so QA never mistakes a test page for live', () => {
    const host = mount(open())
    expect(text(host, 'test-badge')).toBe('Test mode')
  })

  it('never shows with a pk_live_ key', async () => {
    await createCampaign('sk_live_acme', {
      name: 'Acme live',
      referrer: { amount: 25, currency: 'USD' },
      referred: { amount: 10, currency: 'USD' },
    })
    const { host } = await readyPanel({ publicKey: 'pk_live_acme' })
    expect(rootOf(host).getAttribute('data-state')).toBe('ready')
    expect(text(host, 'headline')).toBe('Give $10, get $25')
    expect(part(host, 'test-badge')).toBeNull()
    expect(rootOf(host).textContent).not.toContain('Test mode')
  })
})

// --- copy ------------------------------------------------------------------------------------

describe('copy', () => {
  function stubExecCommand(result: boolean | Error) {
    const execCommand = vi.fn((_command: string) => {
      if (result instanceof Error) throw result
      return result
    })
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true })
    teardown.push(() => {
      Reflect.deleteProperty(document, 'execCommand')
    })
    return execCommand
  }

  it('copies the share URL and says so', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const { host, link } = await readyPanel()

    copyButton(host).click()
    await settle()

    expect(writeText).toHaveBeenCalledTimes(1)
    expect(writeText).toHaveBeenCalledWith(link.url)
    expect(text(host, 'status')).toBe('Link copied')
  })

  it('says so in the locale', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const { host } = await readyPanel({ locale: 'fr' })
    copyButton(host).click()
    await settle()
    expect(text(host, 'status')).toBe('Lien copié')
  })

  it('falls back to selecting the input when the clipboard API refuses', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('NotAllowedError'))
    const execCommand = stubExecCommand(true)
    const { host } = await readyPanel()

    copyButton(host).click()
    await settle()

    expect(execCommand).toHaveBeenCalledWith('copy')
    expect(text(host, 'status')).toBe('Link copied')
  })

  it.each([
    ['execCommand answers false', false],
    ['execCommand throws', new Error('not supported')],
  ])('tells the visitor when copying fails (%s)', async (_, result) => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('NotAllowedError'))
    stubExecCommand(result)
    const { host } = await readyPanel()

    copyButton(host).click()
    await settle()

    expect(text(host, 'status')).toBe('Could not copy: select the link and copy it yourself')
  })

  it('a copy failure never claims success later on', async () => {
    const writeText = vi
      .spyOn(navigator.clipboard, 'writeText')
      .mockRejectedValueOnce(new Error('NotAllowedError'))
      .mockResolvedValueOnce(undefined)
    stubExecCommand(false)
    const { host } = await readyPanel()

    copyButton(host).click()
    await settle()
    expect(text(host, 'status')).toBe(EN.copyFailed)

    copyButton(host).click()
    await settle()
    expect(writeText).toHaveBeenCalledTimes(2)
    expect(text(host, 'status')).toBe(EN.copied)
  })

  it('a disabled copy button does nothing while the link loads', () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const host = mount(open({ userId: 'alice' }))
    copyButton(host).click()
    expect(writeText).not.toHaveBeenCalled()
    expect(text(host, 'status')).toBe('')
  })
})

// --- share -----------------------------------------------------------------------------------

describe('share links', () => {
  const subject = 'A gift for you: $10 credit'

  function network(host: Element, name: string): HTMLAnchorElement {
    const anchor = mustPart(host, 'share').querySelector<HTMLAnchorElement>(
      `a[data-network="${name}"]`,
    )
    if (!anchor) throw new Error(`no ${name} share link`)
    return anchor
  }
  /** The text a channel's link carries: the mailto body or the `text` parameter. */
  function shared(host: Element, name: string): string {
    const url = new URL(network(host, name).getAttribute('href') ?? '')
    return url.searchParams.get(name === 'email' ? 'body' : 'text') ?? ''
  }

  it('email: a mailto with its own subject and body, the URL in the body', async () => {
    const { host, link } = await readyPanel()
    const href = network(host, 'email').getAttribute('href') ?? ''

    expect(href.startsWith('mailto:?')).toBe(true)
    const params = new URL(href).searchParams
    expect(params.get('subject')).toBe(subject)
    expect(params.get('body')).toBe(`Hi! Sign up with my link and get $10 credit: ${link.url}`)
  })

  it('X, WhatsApp and LinkedIn each carry their own text with the share URL', async () => {
    const { host, link } = await readyPanel()
    expect(new URL(network(host, 'x').href).origin).toBe('https://x.com')
    expect(shared(host, 'x')).toBe(`Get $10 credit when you sign up with my link: ${link.url}`)
    expect(new URL(network(host, 'whatsapp').href).origin).toBe('https://wa.me')
    expect(shared(host, 'whatsapp')).toBe(
      `Hey, sign up with my link and get $10 credit: ${link.url}`,
    )
    expect(new URL(network(host, 'linkedin').href).origin).toBe('https://www.linkedin.com')
    expect(shared(host, 'linkedin')).toBe(
      `I recommend it: sign up with my link and get $10 credit. ${link.url}`,
    )
    const texts = ['email', 'x', 'whatsapp', 'linkedin'].map((name) => shared(host, name))
    expect(new Set(texts).size).toBe(4)
  })

  it('each channel’s text is replaced on its own; {get} and {url} are filled, a missing {url} is appended', async () => {
    const { host, link } = await readyPanel(
      {},
      {
        messages: {
          xText: 'Me {get}, you {give}: {url} #referral',
          whatsappText: 'Join me!',
          emailSubject: 'Join me and get {give}',
        },
      },
    )
    expect(shared(host, 'x')).toBe(`Me $10, you $10: ${link.url} #referral`)
    expect(shared(host, 'whatsapp')).toBe(`Join me! ${link.url}`)
    expect(new URL(network(host, 'email').href).searchParams.get('subject')).toBe(
      'Join me and get $10',
    )
    expect(shared(host, 'linkedin')).toBe(
      `I recommend it: sign up with my link and get $10 credit. ${link.url}`,
    )
  })

  it('shareUtm: each channel shares the link tagged with its own utm_source; the ref code stays', async () => {
    const { host, link } = await readyPanel({}, { shareUtm: true })
    for (const name of ['email', 'x', 'whatsapp', 'linkedin']) {
      const sharedUrl = new URL(shared(host, name).split(' ').at(-1) ?? '')
      expect(sharedUrl.searchParams.get('utm_source')).toBe(name)
      expect(sharedUrl.searchParams.get('utm_medium')).toBe('referral')
      expect(sharedUrl.searchParams.get('ref')).toBe(new URL(link.url).searchParams.get('ref'))
    }
    // The link shown and copied is the untagged one.
    expect((mustPart(host, 'link') as HTMLInputElement).value).toBe(link.url)
  })

  it('without shareUtm no channel adds utm parameters', async () => {
    const { host } = await readyPanel()
    for (const name of ['email', 'x', 'whatsapp', 'linkedin'])
      expect(shared(host, name)).not.toContain('utm_')
  })

  it('the share URL stays whole: its own ? and = cannot leak into the outer query', async () => {
    const { host, link } = await readyPanel({ landingUrl: 'https://shop.test/join?utm=a&b=c' })
    expect(link.url).toContain('utm=a&b=c')
    const x = new URL(network(host, 'x').getAttribute('href') ?? '')
    expect(x.searchParams.get('text')).toContain(link.url)
    expect(x.searchParams.has('b')).toBe(false)
  })

  it('network links open in a new tab without giving it the opener, with accessible names', async () => {
    const { host } = await readyPanel()
    for (const name of ['email', 'x', 'whatsapp', 'linkedin']) {
      const anchor = network(host, name)
      expect(anchor.getAttribute('target')).toBe('_blank')
      expect(anchor.getAttribute('rel')).toContain('noopener')
      expect(anchor.getAttribute('aria-label')).toMatch(/^Share via /)
    }
  })

  it('the share text follows the locale and its currency', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 20, currency: 'EUR' },
      referred: { amount: 15, currency: 'EUR' },
    })
    const { host, link } = await readyPanel({ campaignId, locale: 'de-DE' })
    expect(shared(host, 'x')).toBe(
      `Hol dir 15\u00a0€ Guthaben, wenn du dich über meinen Link anmeldest: ${link.url}`,
    )
  })

  it('a QR code control opens the link as a labelled QR code; Close returns focus to it', async () => {
    const { host, link } = await readyPanel()
    const control = mustPart(host, 'share').querySelector<HTMLButtonElement>(
      'button[data-network="qr"]',
    )
    expect(control?.textContent).toBe('QR code')
    expect(control?.getAttribute('aria-haspopup')).toBe('dialog')
    control?.click()
    await vi.waitFor(() => expect(part(host, 'qr')).not.toBeNull())

    const dialog = mustPart(host, 'qr') as HTMLDialogElement
    expect(dialog.open).toBe(true)
    expect(dialog.getAttribute('aria-labelledby')).toBe('referral-qr-title')
    expect(shadow(host).getElementById('referral-qr-title')?.textContent).toBe(
      'Scan to open your link',
    )
    const code = dialog.querySelector('[data-part="qr-code"]')
    expect(code?.getAttribute('role')).toBe('img')
    expect(code?.getAttribute('aria-label')).toBe(`QR code of ${link.url}`)
    expect(dialog.textContent).toContain(link.url)
    expect(control?.getAttribute('aria-expanded')).toBe('true')

    dialog.querySelector<HTMLButtonElement>('[data-part="qr-close"]')?.click()
    await settle()
    expect(part(host, 'qr')).toBeNull()
    expect(shadow(host).activeElement).toBe(control)
    expect(control?.getAttribute('aria-expanded')).toBe('false')
  })

  it('with shareUtm the QR code holds the link tagged utm_source=qr', async () => {
    const { host, link } = await readyPanel({}, { shareUtm: true })
    mustPart(host, 'share').querySelector<HTMLButtonElement>('[data-network="qr"]')?.click()
    await vi.waitFor(() => expect(part(host, 'qr-code')).not.toBeNull())
    const label = part(host, 'qr-code')?.getAttribute('aria-label') ?? ''
    const shared = new URL(label.replace('QR code of ', ''))
    expect(shared.searchParams.get('utm_source')).toBe('qr')
    expect(shared.searchParams.get('ref')).toBe(new URL(link.url).searchParams.get('ref'))
  })

  it('no native share button without navigator.share', async () => {
    expect('share' in navigator).toBe(false)
    const { host } = await readyPanel()
    expect(mustPart(host, 'share').querySelector('[data-network="native"]')).toBeNull()
  })

  it('a native share button when navigator.share exists, sharing the URL and text', async () => {
    const share = vi.fn((_data: ShareData) => Promise.resolve())
    Object.defineProperty(navigator, 'share', { value: share, configurable: true })
    teardown.push(() => {
      Reflect.deleteProperty(navigator, 'share')
    })
    const { host, link } = await readyPanel()

    const button = mustPart(host, 'share').querySelector<HTMLButtonElement>(
      'button[data-network="native"]',
    )
    expect(button?.textContent).toBe('Share')
    button?.click()
    await settle()
    expect(share).toHaveBeenCalledWith({
      title: subject,
      text: 'Sign up with my link and get $10 credit.',
      url: link.url,
    })
  })

  it('a cancelled native share is quiet', async () => {
    const share = vi.fn((_data: ShareData) => Promise.reject(new Error('AbortError')))
    Object.defineProperty(navigator, 'share', { value: share, configurable: true })
    teardown.push(() => {
      Reflect.deleteProperty(navigator, 'share')
    })
    const { host } = await readyPanel()
    mustPart(host, 'share').querySelector<HTMLButtonElement>('[data-network="native"]')?.click()
    await settle()
    expect(share).toHaveBeenCalledTimes(1)
    expect(text(host, 'status')).toBe('')
  })
})

// --- hostile strings -------------------------------------------------------------------------

describe('hostile strings', () => {
  it('a campaign name with markup renders as text, never as an element', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      name: HOSTILE,
      referrer: { amount: 10, currency: 'USD' },
      referred: { amount: 10, currency: 'USD' },
    })
    const { host } = await readyPanel({ campaignId })

    expect(rootOf(host).getAttribute('data-state')).toBe('ready')
    expect(rootOf(host).getAttribute('aria-label')).toBe(HOSTILE)
    expect(shadow(host).querySelector('img')).toBeNull()
    expect(shadow(host).querySelector('[onerror]')).toBeNull()
  })

  it('a message override with markup renders as text', async () => {
    const { host } = await readyPanel(
      {},
      { messages: { copy: HOSTILE, headline: `${HOSTILE}{give}` } },
    )
    expect(copyButton(host).textContent).toBe(HOSTILE)
    expect(text(host, 'headline')).toBe(`${HOSTILE}$10`)
    expect(shadow(host).querySelector('img')).toBeNull()
  })

  it('every href of a ready panel is http(s) or the composed mailto', async () => {
    const { host } = await readyPanel()
    const all = hrefs(shadow(host))
    expect(all.length).toBe(4)
    for (const href of all) expect(href).toMatch(/^(https:\/\/|mailto:\?)/)
  })

  function renderWithLink(url: string) {
    const stores = createStores()
    stores.$campaign.set({
      status: 'ready',
      campaign: {
        id: 'camp_acmeFriendsAndFamily',
        name: 'Acme friends & family',
        status: 'active',
        rewardTrigger: 'signup',
        referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
        referredReward: { type: 'credit', amount: 10, currency: 'USD' },
        attributionWindow: '30d',
        createdAt: '2026-01-15T12:00:00Z',
      },
    })
    stores.$link.set({ status: 'ready', link: { code: 'ABCD1234', url } })
    const ui: UiSettings = {
      locale: 'en',
      theme: 'auto',
      messages: EN,
      dir: 'ltr',
      mode: 'test',
      language: 'en',
      shareUtm: false,
    }
    return render(<Panel source={stores} ui={ui} />)
  }

  it.each([
    'javascript:alert(1)//?ref=ABCD1234',
    'JavaScript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'not a url at all',
  ])('a link URL %j from the server never reaches an href or the input', (url) => {
    const { container } = renderWithLink(url)

    expect(container.querySelector('[data-part="link"]')).toBeNull()
    expect(container.querySelector('[data-part="share"]')).toBeNull()
    expect(container.querySelector<HTMLButtonElement>('[data-part="copy"]')?.disabled).toBe(true)
    for (const href of hrefs(container)) expect(href).toMatch(/^(https?:|mailto:)/)
    expect(container.innerHTML).not.toContain(url.slice(0, 10).replace(/&/g, '&amp;'))
  })

  it('an https link URL from the server is shown (the guard lets real links through)', () => {
    const { container } = renderWithLink('https://shop.test/?ref=ABCD1234')
    const input = container.querySelector<HTMLInputElement>('[data-part="link"]')
    expect(input?.value).toBe('https://shop.test/?ref=ABCD1234')
  })

  it('on a page that is not http(s), with no landing URL, no link is offered', async () => {
    const core = open({
      userId: 'alice',
      landingUrl: undefined,
      href: 'file:///C:/shop/index.html',
    })
    const host = mount(core)
    await settle()

    expect(linkInput(host)).toBeNull()
    for (const href of hrefs(shadow(host))) expect(href).toMatch(/^(https?:|mailto:)/)
    expect(shadow(host).innerHTML).not.toContain('file:')
  })
})

// --- the referrer's results (service extension) --------------------------------------------

describe('summary', () => {
  type Summary = NonNullable<ReturnType<Core['$summary']['get']>>
  const show = (core: Core, figures: Partial<Summary> & { code: string }) =>
    (core.$summary as unknown as { set(value: Summary | null): void }).set({
      campaignId: 'camp_acmeFriendsAndFamily',
      clicks: 0,
      signups: 0,
      conversions: 0,
      rewardsEarned: { amount: 0, currency: 'USD' },
      recent: [],
      ...figures,
    })

  it('none: no summary part (a service without the extension, or no token)', async () => {
    const { host } = await readyPanel()
    expect(part(host, 'summary')).toBeNull()
    expect(rootOf(host).getAttribute('data-state')).toBe('ready')
  })

  it.each([
    [0, 0, '0 friends joined'],
    [1, 10, '1 friend joined · $10 earned'],
    [3, 30, '3 friends joined · $30 earned'],
  ])('%i signed up, $%i earned: "%s"', async (signups, amount, expected) => {
    const { core, host, link } = await readyPanel()
    show(core, { code: link.code, signups, rewardsEarned: { amount, currency: 'USD' } })
    await settle()
    expect(text(host, 'summary')).toBe(expected)
  })

  it('only for the link shown: figures of another code are not shown', async () => {
    const { core, host } = await readyPanel()
    show(core, { code: 'ZZZZ9999', signups: 5 })
    await settle()
    expect(part(host, 'summary')).toBeNull()
  })

  it.each([
    ['pl', 3, 'PLN', '3 znajomi dołączyli · zarobiono 30 zł'],
    ['pl', 5, 'PLN', '5 znajomych dołączyło · zarobiono 30 zł'],
    ['ar', 2, 'USD', 'انضم صديقان · ربحت ‏30 US$'],
    ['de', 1, 'EUR', '1 Freund ist beigetreten · 30 € verdient'],
    ['ja', 4, 'JPY', '4人の友達が参加しました · ￥30を獲得'],
  ])(
    '%s: %i friends, in the language’s plural form and currency',
    async (locale, signups, currency, expected) => {
      const { core, host, link } = await readyPanel({}, { locale })
      show(core, { code: link.code, signups, rewardsEarned: { amount: 30, currency } })
      await settle()
      expect(text(host, 'summary')?.replace(/\s/g, ' ')).toBe(expected.replace(/\s/g, ' '))
    },
  )

  it('overridable through messages, plural forms included', async () => {
    const { core, host, link } = await readyPanel(
      {},
      {
        messages: {
          summary: { one: 'One pal', other: '{count} pals' },
          summaryEarned: '{amount}!',
        },
      },
    )
    show(core, { code: link.code, signups: 2, rewardsEarned: { amount: 5, currency: 'USD' } })
    await settle()
    expect(text(host, 'summary')).toBe('2 pals · $5!')
  })
})
