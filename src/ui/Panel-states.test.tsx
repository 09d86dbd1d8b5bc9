// @vitest-environment happy-dom
// The referrer's panel in each of its states (WIDGET.md section 3): loading, ready, signed out,
// empty, error and unmounted, in its own shadow root, and the status notes while referral actions
// wait. The panel runs against the in-process reference service (test/support/harness.ts) with
// fake time.
import { describe, expect, it, vi } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import {
  copyButton,
  EN,
  linkInput,
  mountPanelHost as mount,
  mustPart,
  open,
  part,
  readyPanel,
  rootOf,
  shadow,
  text,
  useUiWorld,
  world,
} from '../../test/support/ui-world.ts'
import { SEND_DELAY_MS } from '../queue/queue.ts'
import { mountPanel } from './mount.ts'

useUiWorld()

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
