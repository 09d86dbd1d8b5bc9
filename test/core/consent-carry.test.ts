// A referral that waits for the visitor's consent (consent: 'required', not answered yet): nothing
// is stored, the referral parameter stays in the address bar, and the referral rides on the site's
// own links (and its outbound hosts) as `ref_handoff=c1.…`, so it survives until the visitor
// answers, on whichever page: then it is recorded once, at its first capture time, or not at all.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HANDOFF_PARAM } from '../../src/api/handoff.ts'
import type { StorageLike } from '../../src/queue/storage.ts'
import { createWorld } from '../support/harness.ts'

const SHOP = 'https://shop.test'
const MINUTE = 60_000

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 2, 9) })
})
afterEach(() => {
  vi.useRealTimers()
})

const settle = () => vi.advanceTimersByTimeAsync(10)
const keysOf = (storage: StorageLike) =>
  Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '')

/** A page of the shop with consent required: its own storage, its address bar recorded. */
function page(world: ReturnType<typeof createWorld>, href: string, extra = {}) {
  const storage = world.createMemoryStorage()
  const replaced: string[] = []
  const tab = world.tab({
    href,
    storage,
    consent: 'required',
    replaceUrl: (to) => replaced.push(to),
    ...extra,
  })
  return { tab, storage, replaced }
}

/** The first page: an arrival through alice's link, consent not answered. */
async function arrival() {
  const world = createWorld()
  const code = await world.makeLink('alice')
  const first = page(world, `${SHOP}/landing?ref=${code}&utm_source=mail`)
  await settle()
  return { world, code, first, capturedAt: first.tab.getAttribution()?.capturedAt }
}

const clicks = async (world: ReturnType<typeof createWorld>) =>
  (await world.campaign()).stats.totalClicks

describe('a referral waiting for consent', () => {
  it('stays in the address bar, stores nothing, and rides on links to the same origin only', async () => {
    const { world, code, first } = await arrival()
    expect(first.replaced).toEqual([])
    expect(keysOf(first.storage)).toEqual([])
    const carried = first.tab.decorate(`${SHOP}/pricing?plan=pro#top`)
    expect(carried).toMatch(
      new RegExp(
        `^${SHOP}/pricing\\?plan=pro&${HANDOFF_PARAM}=c1\\.${code}\\.[\\w-]+\\.[0-9a-z]+\\.[0-9a-z]+#top$`,
      ),
    )
    for (const elsewhere of ['https://other.test/', 'http://shop.test/', 'https://shop.test:8443/'])
      expect(first.tab.decorate(elsewhere)).toBe(elsewhere)
    expect(world.eventRequests()).toEqual([])
    first.tab.destroy()
  })

  it('consent on the first page: one click, the address bar cleaned, links no longer carry it', async () => {
    const { world, first } = await arrival()
    first.tab.consent(true)
    await settle()
    expect(await clicks(world)).toBe(1)
    expect(first.replaced).toEqual([`${SHOP}/landing?utm_source=mail`])
    expect(first.tab.decorate(`${SHOP}/pricing`)).toBe(`${SHOP}/pricing`)
    first.tab.destroy()
  })

  it('carried to the next page and consented there: one click, captured when the visitor arrived', async () => {
    const { world, code, first, capturedAt } = await arrival()
    vi.advanceTimersByTime(3 * MINUTE)
    const next = first.tab.decorate(`${SHOP}/pricing`)
    first.tab.destroy() // the visitor followed the link
    const second = page(world, next)
    await settle()
    expect(second.replaced).toEqual([])
    expect(second.tab.getAttribution()).toMatchObject({ code, capturedAt })
    // It rides on from here too, still with its first capture time.
    expect(second.tab.decorate(`${SHOP}/cart`)).toContain(`${HANDOFF_PARAM}=c1.${code}.`)
    expect(await clicks(world)).toBe(0)

    second.tab.consent(true)
    await settle()
    expect(await clicks(world)).toBe(1)
    expect(world.eventRequests().flatMap((r) => r.eventIds)).toHaveLength(1)
    expect(second.tab.getAttribution()).toMatchObject({ code, capturedAt })
    expect(second.replaced).toEqual([`${SHOP}/pricing`])
    second.tab.destroy()
  })

  it('refused on the next page: nothing recorded, the address bar cleaned, nothing carried', async () => {
    const { world, first } = await arrival()
    const second = page(world, first.tab.decorate(`${SHOP}/pricing?plan=pro`))
    first.tab.destroy()
    await settle()
    second.tab.consent(false)
    await settle()
    expect(second.replaced).toEqual([`${SHOP}/pricing?plan=pro`])
    expect(second.tab.getAttribution()).toBeNull()
    expect(second.tab.decorate(`${SHOP}/cart`)).toBe(`${SHOP}/cart`)
    expect(keysOf(second.storage)).toEqual([])
    expect(await clicks(world)).toBe(0)
    second.tab.destroy()
  })

  it('a reload before answering, then consent: one click', async () => {
    const { world, code, first } = await arrival()
    first.tab.destroy()
    const reload = page(world, `${SHOP}/landing?ref=${code}&utm_source=mail`, { reloaded: true })
    await settle()
    reload.tab.consent(true)
    await settle()
    expect(await clicks(world)).toBe(1)
    reload.tab.destroy()
  })

  it('with outbound hosts: carried there too, and nowhere else', async () => {
    const world = createWorld()
    const code = await world.makeLink('alice')
    const first = page(world, `${SHOP}/?ref=${code}`, { outbound: ['app.other.test'] })
    await settle()
    expect(first.tab.decorate('https://app.other.test/signup')).toContain(`${HANDOFF_PARAM}=c1.`)
    expect(first.tab.decorate('https://third.test/')).toBe('https://third.test/')
    first.tab.destroy()
  })

  it('under Global Privacy Control (honorGpc): nothing held, nothing carried', async () => {
    const world = createWorld()
    const code = await world.makeLink('alice')
    const first = page(world, `${SHOP}/?ref=${code}`, { honorGpc: true, gpc: true })
    await settle()
    expect(first.tab.getAttribution()).toBeNull()
    expect(first.tab.decorate(`${SHOP}/pricing`)).toBe(`${SHOP}/pricing`)
    first.tab.destroy()
  })

  it('a carried referral reaching a page where consent was given: its click recorded once there', async () => {
    const { world, code, first, capturedAt } = await arrival()
    const next = first.tab.decorate(`${SHOP}/pricing`)
    first.tab.destroy()
    const storage = world.createMemoryStorage()
    world.tab({ storage, consent: 'required' }).consent(true)
    const second = world.tab({ href: next, storage, consent: 'required' })
    await settle()
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(await clicks(world)).toBe(1)
    expect(second.getAttribution()).toMatchObject({ code, capturedAt })
    second.destroy()
  })
})
