// createReferral as an SPA developer meets it: the campaign (the newest active one, cached and
// revalidated, paused, unreachable, or asked for only on demand) and the signed-in user's link.
// Time is the fake clock's (useFakeClock).
import { describe, expect, it, vi } from 'vitest'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { ConfigError } from '../../src/shared/errors.ts'
import { updateCampaign } from '../support/campaign-owner.ts'
import { tick as settle, useFakeClock } from '../support/delivery-world.ts'
import { createWorld } from '../support/harness.ts'

const START = Date.UTC(2026, 10, 2, 9)
useFakeClock(START)

describe('campaign', () => {
  it('shows the newest active campaign, then reads it from cache on the next visit with no blocking request', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const first = world.tab({ storage })
    expect(first.$campaign.get().status).toBe('loading')
    await settle()
    const shown = first.$campaign.get()
    expect(shown.status === 'ready' && shown.campaign.id).toBe('camp_acmeFriendsAndFamily')
    first.destroy()

    // The repeat visit renders from cache before any answer has arrived.
    const second = world.tab({ storage })
    const cached = second.$campaign.get()
    expect(cached.status === 'ready' && cached.campaign.name).toBe('Acme friends & family')
    await settle()
    second.destroy()
  })

  it('revalidates the cache: a renamed campaign shows its new name', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const first = world.tab({ storage })
    await settle()
    first.destroy()
    await updateCampaign(world, { name: 'Acme spring' })
    const second = world.tab({ storage })
    const names: string[] = []
    second.$campaign.subscribe((state) => {
      if (state.status === 'ready') names.push(state.campaign.name)
    })
    await settle()
    expect(names).toEqual(['Acme friends & family', 'Acme spring'])
    second.destroy()
  })

  it('is empty, and says so once, when the campaign is paused', async () => {
    const world = createWorld()
    await updateCampaign(world, { status: 'paused' })
    const tab = world.tab({ campaignId: 'camp_acmeFriendsAndFamily' })
    const ready = vi.fn()
    tab.on('ready', ready)
    await settle()
    expect(tab.$campaign.get().status).toBe('empty')
    expect(ready).toHaveBeenCalledTimes(1)
    expect(ready).toHaveBeenCalledWith({ campaign: null })
    tab.destroy()
  })

  it('shows an error, and emits it, when the service cannot be reached and nothing is cached', async () => {
    const world = createWorld()
    world.faults.push({ kind: 'network' })
    const tab = world.tab()
    const errors = vi.fn()
    tab.on('error', errors)
    await settle()
    expect(tab.$campaign.get().status).toBe('error')
    expect(errors).toHaveBeenCalledTimes(1)
    tab.destroy()
  })
})

describe('campaign on demand', () => {
  it('asks for no campaign until something needs it, then for the campaign and the link once', async () => {
    const world = createWorld()
    const tab = world.tab({ campaign: 'on-demand', userId: 'alice' })
    tab.track('signup', { userId: 'bob' })
    await settle()
    expect(world.sent.map((request) => request.path)).toEqual(['/v1/events'])
    expect(tab.$campaign.get().status).toBe('loading')

    const link = await tab.getLink()
    expect(link.code).toMatch(/^[A-Za-z0-9]{8,12}$/)
    expect(world.sent.map((request) => request.path)).toEqual([
      '/v1/events',
      '/v1/campaigns?status=active&limit=1',
      '/v1/links',
    ])
    tab.needCampaign()
    await settle()
    expect(world.sent).toHaveLength(3)
    tab.destroy()
  })
})

describe('link', () => {
  it('creates the signed-in user’s link once and serves it from cache afterwards', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const first = world.tab({
      storage,
      userId: 'alice',
      landingUrl: 'https://shop.test/join?from=mail',
    })
    const link = await first.getLink()
    expect(link.code).toMatch(/^[A-Za-z0-9]{8,12}$/)
    expect(link.url).toBe(`https://shop.test/join?from=mail&ref=${link.code}`)
    first.destroy()

    const before = world.sent.filter((r) => r.path === '/v1/links').length
    const second = world.tab({
      storage,
      userId: 'alice',
      landingUrl: 'https://shop.test/join?from=mail',
    })
    await settle()
    expect(second.$link.get()).toEqual({ status: 'ready', link })
    expect(world.sent.filter((r) => r.path === '/v1/links').length).toBe(before)
    second.destroy()
  })

  it('follows identify(): no link before, the new user’s link after', async () => {
    const world = createWorld()
    const tab = world.tab()
    await settle()
    expect(tab.$link.get().status).toBe('idle')
    await expect(tab.getLink()).rejects.toThrow(/identify/)
    const links = vi.fn()
    tab.on('link', links)
    tab.identify('bob')
    const bob = await tab.getLink()
    tab.identify('carol')
    const carol = await tab.getLink()
    expect(carol.code).not.toBe(bob.code)
    expect(links).toHaveBeenCalledTimes(2)
    expect(() => tab.identify('<script>')).toThrow(ConfigError)
    expect((await tab.getLink()).code).toBe(carol.code)
    tab.destroy()
  })

  it('uses the first ref parameter name in the share URL', async () => {
    const world = createWorld()
    const tab = world.tab({ userId: 'alice', refParam: 'via,ref' })
    expect((await tab.getLink()).url).toMatch(/^https:\/\/shop\.test\/\?via=[A-Za-z0-9]{8,12}$/)
    tab.destroy()
  })
})
