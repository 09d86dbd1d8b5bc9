// @vitest-environment happy-dom
// The friend's promotion code in the referred visitor's banner (a service extension, CONTRACT.md
// "Promotion code"): shown with its label where the campaign has one, copied through the clipboard
// API or the selection, the result announced; a campaign without one shows the banner as before.
// The banner runs against the in-process reference service (test/support/harness.ts) with fake
// time, or renders from stores set by hand.
import { render } from '@testing-library/preact'
import { describe, expect, it, vi } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import {
  arrive,
  banner,
  createTestCampaign,
  dismissButton,
  EN,
  HOSTILE,
  sentence,
  teardown,
  useUiWorld,
} from '../../test/support/ui-world.ts'
import type { PublicCampaign } from '../api/wire.ts'
import { createStores } from '../core/stores.ts'
import { Banner } from './Banner.tsx'
import type { UiSettings } from './Panel.tsx'

useUiWorld()

/** The code the reference service's seeded campaign (Acme friends & family) gives the friend. */
const SEEDED_CODE = 'FRIEND10'

const find = <T extends Element = HTMLElement>(root: ParentNode | null | undefined, name: string) =>
  root?.querySelector<T>(`[data-part="${name}"]`) ?? null
const codeInput = (root: ParentNode | null | undefined) =>
  find<HTMLInputElement>(root, 'promotion-code')
const copyCodeButton = (root: ParentNode | null | undefined) => {
  const button = find<HTMLButtonElement>(root, 'copy-code')
  if (!button) throw new Error('no copy-code button')
  return button
}
const status = (root: ParentNode | null | undefined) => find(root, 'status')?.textContent

/** The label that names `input` (through for/id), as assistive technology reads it. */
const labelOf = (input: HTMLInputElement) =>
  Array.from((input.getRootNode() as ParentNode).querySelectorAll('label')).find(
    (label) => label.htmlFor !== '' && label.htmlFor === input.id,
  )?.textContent

function stubExecCommand(result: boolean | Error, onCall: () => void = () => {}) {
  const execCommand = vi.fn((_command: string) => {
    onCall()
    if (result instanceof Error) throw result
    return result
  })
  Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true })
  teardown.push(() => {
    Reflect.deleteProperty(document, 'execCommand')
  })
  return execCommand
}

/** A campaign of org_acme's test mode whose reward comes with no code. */
const campaignWithoutCode = () =>
  createTestCampaign({
    name: 'No code',
    referrer: { amount: 10, currency: 'USD' },
    referred: { amount: 10, currency: 'USD' },
  })

describe('the promotion code in the banner', () => {
  it('shown with its label and a copy button when the campaign has one', async () => {
    const { host } = await arrive()
    const shown = banner(host)
    expect(sentence(host)).toBe('A friend invited you: sign up and get $10 credit')

    const input = codeInput(shown)
    if (!input) throw new Error('no promotion code shown')
    expect(input.value).toBe(SEEDED_CODE)
    expect(input.tagName).toBe('INPUT')
    expect(input.readOnly).toBe(true)
    expect(input.getAttribute('dir')).toBe('ltr')
    expect(labelOf(input)).toBe('Your code at checkout')
    expect(copyCodeButton(shown).textContent).toBe('Copy code')
    expect(copyCodeButton(shown).type).toBe('button')

    const region = find(shown, 'status')
    expect(region?.getAttribute('role')).toBe('status')
    expect(region?.getAttribute('aria-live')).toBe('polite')
    expect(region?.textContent).toBe('')
    // The dismiss button stays the banner's last part, after the code.
    expect(shown?.lastElementChild).toBe(dismissButton(host))
  })

  it('selects itself when focused, to be copied by hand', async () => {
    const { host } = await arrive()
    const input = codeInput(banner(host))
    if (!input) throw new Error('no promotion code shown')
    input.focus()
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, SEEDED_CODE.length])
  })

  it('none of it when the campaign has no code: the banner reads as it always did', async () => {
    const { host } = await arrive({ campaignId: await campaignWithoutCode() })
    const shown = banner(host)
    expect(sentence(host)).toBe('A friend invited you: sign up and get $10 credit')
    expect(codeInput(shown)).toBeNull()
    expect(find(shown, 'copy-code')).toBeNull()
    expect(find(shown, 'status')).toBeNull()
    expect(shown?.querySelector('input, label, [role="status"]')).toBeNull()
    expect(shown?.textContent).toBe('A friend invited you: sign up and get $10 credit×')
  })

  it('in the visitor’s language (German)', async () => {
    const { host } = await arrive({ locale: 'de-DE' })
    const input = codeInput(banner(host))
    if (!input) throw new Error('no promotion code shown')
    expect(labelOf(input)).toBe('Dein Code für die Kasse')
    expect(copyCodeButton(banner(host)).textContent).toBe('Code kopieren')
  })
})

describe('copying the code', () => {
  it('writes exactly the code and announces it', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const { host } = await arrive()

    copyCodeButton(banner(host)).click()
    await settle()

    expect(writeText).toHaveBeenCalledTimes(1)
    expect(writeText).toHaveBeenCalledWith(SEEDED_CODE)
    expect(status(banner(host))).toBe('Code copied')
  })

  it('announces it in the visitor’s language', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const { host } = await arrive({ locale: 'de-DE' })
    copyCodeButton(banner(host)).click()
    await settle()
    expect(status(banner(host))).toBe('Code kopiert')
  })

  it('falls back to selecting the code when the clipboard API refuses', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('NotAllowedError'))
    const { host } = await arrive()
    const input = codeInput(banner(host))
    if (!input) throw new Error('no promotion code shown')
    let selected = ''
    const execCommand = stubExecCommand(true, () => {
      selected = input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0)
    })

    copyCodeButton(banner(host)).click()
    await settle()

    expect(execCommand).toHaveBeenCalledWith('copy')
    expect(selected).toBe(SEEDED_CODE)
    expect(status(banner(host))).toBe('Code copied')
  })

  it.each([
    ['execCommand answers false', false],
    ['execCommand throws', new Error('not supported')],
  ])('tells the visitor when copying fails (%s)', async (_, result) => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('NotAllowedError'))
    stubExecCommand(result)
    const { host } = await arrive()

    copyCodeButton(banner(host)).click()
    await settle()

    expect(status(banner(host))).toBe('Could not copy: select the code and copy it yourself')
    expect(status(banner(host))).toBe(EN.codeCopyFailed)
  })
})

// --- stores set by hand --------------------------------------------------------------------------

const UI: UiSettings = {
  locale: 'en',
  theme: 'auto',
  messages: EN,
  dir: 'ltr',
  mode: 'test',
  language: 'en',
  shareUtm: false,
}

function campaign(id: string, promotionCode?: string): PublicCampaign {
  return {
    id,
    name: 'Acme friends & family',
    status: 'active',
    rewardTrigger: 'signup',
    referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
    referredReward: {
      type: 'credit',
      amount: 10,
      currency: 'USD',
      ...(promotionCode === undefined ? {} : { promotionCode }),
    },
    attributionWindow: '30d',
    createdAt: '2026-01-15T12:00:00Z',
  }
}

/** The banner for a visitor who arrived through a link, from stores a test sets. */
async function bannerFromStores(first: PublicCampaign) {
  const stores = createStores()
  stores.$attribution.set({
    code: 'ABCD1234',
    visitorId: 'v_1',
    capturedAt: '2026-01-15T12:00:00Z',
  })
  stores.$campaign.set({ status: 'ready', campaign: first })
  const source = { ...stores, dismissBanner: () => stores.$bannerDismissed.set(true) }
  const { container } = render(<Banner source={source} ui={UI} />)
  await settle()
  return { stores, container }
}

describe('the code follows the campaign', () => {
  it('another campaign’s code replaces it, and one without a code takes it away', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const { stores, container } = await bannerFromStores(campaign('camp_first', 'FRIEND10'))
    expect(codeInput(container)?.value).toBe('FRIEND10')
    copyCodeButton(container).click()
    await settle()
    expect(status(container)).toBe('Code copied')

    stores.$campaign.set({ status: 'ready', campaign: campaign('camp_second', 'SPRING-25') })
    await settle()
    expect(codeInput(container)?.value).toBe('SPRING-25')
    // What was said of the other code is not said of this one.
    expect(status(container)).toBe('')
    copyCodeButton(container).click()
    await settle()
    expect(writeText).toHaveBeenLastCalledWith('SPRING-25')
    expect(status(container)).toBe('Code copied')

    stores.$campaign.set({ status: 'ready', campaign: campaign('camp_third') })
    await settle()
    expect(codeInput(container)).toBeNull()
    expect(find(container, 'copy-code')).toBeNull()
    expect(find(container, 'status')).toBeNull()
    expect(find(container, 'banner')?.querySelector('p')?.textContent).toBe(
      'A friend invited you: sign up and get $10 credit',
    )
  })

  it('a code with markup (no parser in between) stays text', async () => {
    const { container } = await bannerFromStores(campaign('camp_first', HOSTILE))
    expect(codeInput(container)?.value).toBe(HOSTILE)
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('[onerror]')).toBeNull()
  })
})
