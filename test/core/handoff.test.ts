// The hand-off to the site's other domains, end to end in one process: a page on www.shop.test
// with `outbound` decorates a URL to app.other.test with the attribution it holds; the widget on
// app.other.test (the same key, its own storage) adopts a fresh hand-off without recording a
// click, and a signup there is one conversion with the click made on shop. An older or unreadable
// hand-off is an ordinary arrival by its code, never an error. Time is the fake clock's.
import { describe, expect, it, vi } from 'vitest'
import { encodeHandoff, HANDOFF_PARAM } from '../../src/api/handoff.ts'
import type { TrackedEvent } from '../../src/api/wire.ts'
import { createReferral } from '../../src/core/create-referral.ts'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { ConfigError } from '../../src/shared/errors.ts'
import { START, sendAll, settle, useAttributionClock } from '../support/cookie-world.ts'
import { API, createWorld } from '../support/harness.ts'

const MINUTE = 60 * 1000
const SHOP = 'https://www.shop.test'
const APP = 'https://app.other.test'

useAttributionClock()

type Tab = ReturnType<ReturnType<typeof createWorld>['tab']>

/** Every event the tab queues, from its start on. */
function queued(tab: Tab) {
  const events: TrackedEvent[] = []
  tab.on('event:queued', ({ event }) => events.push(event))
  return events
}

/** A world, alice's link, the landing on shop through it, and shop's URL to app decorated. */
async function handedOff(options: Parameters<ReturnType<typeof createWorld>['tab']>[0] = {}) {
  const world = createWorld()
  const code = await world.makeLink('alice')
  const shop = world.tab({ href: `${SHOP}/?ref=${code}`, outbound: ['app.other.test'], ...options })
  await sendAll()
  const url = shop.decorate(`${APP}/signup?plan=pro`)
  return { world, code, shop, url }
}

/**
 * The receiving page: app.other.test at `url` (storage of its own unless given), the address bar
 * recorded, and what it queued at start (heard right after the task that started it).
 */
async function arrive(
  world: ReturnType<typeof createWorld>,
  url: string,
  options: Parameters<ReturnType<typeof createWorld>['tab']>[0] = {},
) {
  const replaced: string[] = []
  const app = world.tab({ href: url, replaceUrl: (to) => replaced.push(to), ...options })
  const events = queued(app)
  await settle()
  return { app, events, replaced }
}

describe('decorate on the outbound page', () => {
  it('gives the URL ref_handoff with the held code, visitor id, capture time and the time now', async () => {
    const { code, shop, url } = await handedOff()
    const held = shop.getAttribution()
    expect(held).toMatchObject({ code, capturedAt: new Date(START).toISOString() })
    const value = encodeHandoff({
      code,
      visitorId: held?.visitorId ?? '',
      capturedAt: START,
      handoffAt: Date.now(),
    })
    expect(url).toBe(`${APP}/signup?plan=pro&${HANDOFF_PARAM}=${value}`)
    shop.destroy()
  })

  it('no attribution, another host, no outbound option: the URL unchanged', async () => {
    const world = createWorld()
    const plain = world.tab({ href: `${SHOP}/`, outbound: ['app.other.test'] })
    expect(plain.decorate(`${APP}/`)).toBe(`${APP}/`)
    const code = await world.makeLink('alice')
    const referred = world.tab({ href: `${SHOP}/?ref=${code}`, outbound: ['app.other.test'] })
    expect(referred.decorate('https://elsewhere.test/')).toBe('https://elsewhere.test/')
    const without = world.tab({ href: `${SHOP}/?ref=${code}` })
    expect(without.decorate(`${APP}/`)).toBe(`${APP}/`)
    for (const tab of [plain, referred, without]) tab.destroy()
  })

  it('consent required: carried (c1, its click still to record) before consent(true), handed off after, not after consent(false)', async () => {
    const { shop, url } = await handedOff({ consent: 'required' })
    expect(shop.getAttribution()).not.toBeNull() // held in memory meanwhile
    expect(url).toContain(`?plan=pro&${HANDOFF_PARAM}=c1.`)
    shop.consent(true)
    expect(shop.decorate(`${APP}/`)).toContain(`?${HANDOFF_PARAM}=h1.`)
    shop.consent(false)
    expect(shop.decorate(`${APP}/`)).toBe(`${APP}/`)
    shop.destroy()
  })

  it('a GPC signal honoured: an attribution stored on an earlier visit is not handed off', async () => {
    const world = createWorld()
    const code = await world.makeLink('alice')
    const storage = world.createMemoryStorage()
    world.tab({ href: `${SHOP}/?ref=${code}`, storage }).destroy()
    const outbound = ['app.other.test']
    const honoured = world.tab({ href: `${SHOP}/`, storage, outbound, honorGpc: true, gpc: true })
    expect(honoured.getAttribution()).toMatchObject({ code })
    expect(honoured.decorate(`${APP}/`)).toBe(`${APP}/`)
    // The signal alone, not honoured (the default), changes nothing.
    const notHonoured = world.tab({ href: `${SHOP}/`, storage, outbound, gpc: true })
    expect(notHonoured.decorate(`${APP}/`)).toContain(HANDOFF_PARAM)
    honoured.destroy()
    notHonoured.destroy()
  })

  it('after forget() or destroy(): the URL unchanged', async () => {
    const { shop } = await handedOff()
    shop.forget()
    expect(shop.decorate(`${APP}/`)).toBe(`${APP}/`)
    const again = await handedOff()
    again.shop.destroy()
    expect(again.shop.decorate(`${APP}/`)).toBe(`${APP}/`)
  })

  it('a bad host in outbound is a ConfigError naming the option and the value', () => {
    const create = (outbound: unknown) => () =>
      createReferral({
        publicKey: 'pk_test_acme',
        apiBase: API,
        storage: createMemoryStorage(),
        outbound: outbound as string[],
      })
    expect(create(['app.example.io', 'https://x.test/'])).toThrow(
      new ConfigError(
        'outbound',
        `outbound="[\\"app.example.io\\",\\"https://x.test/\\"]" is refused: every entry must be a host name such as app.example.io, or *.example.org for its subdomains.`,
      ),
    )
    for (const bad of [
      'app.example.io:8080',
      '*.',
      '**.example.org',
      'a b.test',
      'bücher.test',
      42,
    ])
      expect(create(['ok.test', bad]), String(bad)).toThrow(ConfigError)
    expect(create(42)).toThrow(ConfigError)
    expect(create('App.Example.io, *.Example.org,')).not.toThrow()
  })
})

describe('the receiving page', () => {
  it('29 minutes later: adopted as it is, no click recorded, the address bar cleaned, the signup a conversion', async () => {
    const { world, code, shop, url } = await handedOff()
    const held = shop.getAttribution()
    vi.setSystemTime(Date.now() + 29 * MINUTE)
    const { app, events, replaced } = await arrive(world, url)
    expect(app.getAttribution()).toEqual(held)
    expect(replaced).toEqual([`${APP}/signup?plan=pro`])

    app.track('signup', { userId: 'carol' })
    await sendAll()
    expect(events).toEqual([
      expect.objectContaining({ type: 'signup', code, visitorId: held?.visitorId }),
    ])
    const { stats } = await world.campaign()
    expect(stats).toMatchObject({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
    shop.destroy()
    app.destroy()
  })

  it('31 minutes later: an ordinary arrival by its code, a click of this visitor', async () => {
    const { world, code, shop, url } = await handedOff()
    const held = shop.getAttribution()
    const arrivedAt = Date.now() + 31 * MINUTE
    vi.setSystemTime(arrivedAt)
    const { app, events, replaced } = await arrive(world, url)
    expect(app.getAttribution()).toMatchObject({
      code,
      capturedAt: new Date(arrivedAt).toISOString(),
    })
    expect(app.getAttribution()?.visitorId).not.toBe(held?.visitorId)
    expect(events).toEqual([expect.objectContaining({ type: 'click', code })])
    expect(replaced).toEqual([`${APP}/signup?plan=pro`])
    await sendAll()
    expect((await world.campaign()).stats.totalClicks).toBe(2)
    shop.destroy()
    app.destroy()
  })

  it.each([
    ['garbage', 'zzz', false],
    ['a lone version', 'h1', false],
    ['a code and nothing else readable', 'h1.{code}.not_a_visitor!', true],
    ['another format version', 'h2.{code}.v_0123456789.1.1', false],
  ])(
    '%s: never an error; a click only where a code can be read; cleaned',
    async (_, raw, clicks) => {
      const world = createWorld()
      const code = await world.makeLink('alice')
      const value = raw.replace('{code}', code)
      const errors: Error[] = []
      const { app, events, replaced } = await arrive(
        world,
        `${APP}/?a=1&${HANDOFF_PARAM}=${value}#x`,
      )
      app.on('error', ({ error }) => errors.push(error))
      await settle()
      expect(errors).toEqual([])
      expect(events).toEqual(clicks ? [expect.objectContaining({ type: 'click', code })] : [])
      expect(app.getAttribution()?.code ?? null).toBe(clicks ? code : null)
      expect(replaced).toEqual([`${APP}/?a=1#x`])
      app.destroy()
    },
  )

  it('cleanUrl false: the parameter stays; read again later (a reload), it records no click', async () => {
    const { world, shop, url } = await handedOff()
    const storage = world.createMemoryStorage()
    const first = await arrive(world, url, { storage, cleanUrl: false })
    expect(first.replaced).toEqual([])
    first.app.destroy()
    vi.setSystemTime(Date.now() + 60 * MINUTE)
    const reload = await arrive(world, url, { storage, cleanUrl: false })
    expect(reload.events).toEqual([])
    shop.destroy()
    reload.app.destroy()
  })

  it('a newer attribution held here is kept: an older hand-off replaces neither it nor the visitor id', async () => {
    const { world, shop, url } = await handedOff()
    const bob = await world.makeLink('bob')
    const storage = world.createMemoryStorage()
    vi.setSystemTime(Date.now() + 5 * MINUTE)
    const earlier = world.tab({ href: `${APP}/?ref=${bob}`, storage })
    const own = earlier.getAttribution()
    earlier.destroy()
    const { app, events } = await arrive(world, url, { storage })
    expect(app.getAttribution()).toEqual(own)
    expect(events).toEqual([])
    shop.destroy()
    app.destroy()
  })

  it('the same code in ref as well: adopted, no click; another code in ref: its click, and it wins', async () => {
    const { world, code, shop, url } = await handedOff()
    const held = shop.getAttribution()
    const same = await arrive(world, `${url}&ref=${code}`)
    expect(same.app.getAttribution()).toEqual(held)
    expect(same.events).toEqual([])
    const bob = await world.makeLink('bob')
    const other = await arrive(world, `${url}&ref=${bob}`)
    expect(other.app.getAttribution()).toMatchObject({ code: bob, visitorId: held?.visitorId })
    expect(other.events).toEqual([expect.objectContaining({ type: 'click', code: bob })])
    expect(other.replaced).toEqual([`${APP}/signup?plan=pro`])
    for (const tab of [shop, same.app, other.app]) tab.destroy()
  })

  it('with honorGpc and the signal: not adopted, no click', async () => {
    const { world, shop, url } = await handedOff()
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const { app, events, replaced } = await arrive(world, url, { honorGpc: true, gpc: true })
    expect(app.getAttribution()).toBeNull()
    expect(events).toEqual([])
    expect(replaced).toEqual([`${APP}/signup?plan=pro`])
    shop.destroy()
    app.destroy()
  })

  it('consent required: adopted in memory, kept once consent is given; no click either way', async () => {
    const { world, shop, url } = await handedOff()
    const held = shop.getAttribution()
    const storage = world.createMemoryStorage()
    const { app, events } = await arrive(world, url, { storage, consent: 'required' })
    expect(app.getAttribution()).toEqual(held)
    expect(storage.length).toBe(0)
    app.consent(true)
    app.destroy()
    const later = await arrive(world, `${APP}/account`, { storage, consent: 'required' })
    expect(later.app.getAttribution()).toEqual(held)
    expect([...events, ...later.events]).toEqual([])
    shop.destroy()
    later.app.destroy()
  })

  it('a later arrival here through a ref link of the same code records no second click', async () => {
    const { world, code, shop, url } = await handedOff()
    const storage = world.createMemoryStorage()
    ;(await arrive(world, url, { storage })).app.destroy()
    const direct = await arrive(world, `${APP}/?ref=${code}`, { storage })
    expect(direct.events).toEqual([])
    shop.destroy()
    direct.app.destroy()
  })
})
