// @vitest-environment happy-dom
// The referred visitor's banner (WIDGET.md section 3, `banner`): who sees it (a visitor who arrived
// through a referral link, with the referred reward, for as long as the attribution lasts), and its
// dismissal, remembered.
import { describe, expect, it, vi } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import {
  arrive,
  banner,
  createTestCampaign as createCampaign,
  dismissButton,
  linkCode,
  mountBannerHost as mount,
  open,
  START,
  sentence,
  shadow,
  useUiWorld,
  world,
} from '../../test/support/ui-world.ts'
import type { StorageLike } from '../queue/storage.ts'

const DAY = 24 * 60 * 60 * 1000

useUiWorld()

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
