// A hand-off meets what the receiving page already holds, and the campaign's window: a capture
// time in the address bar is anybody's to write, so it never displaces a referral held here with
// first-touch, and one past the window changes nothing; a window longer than 30 days is honoured
// on a page that has not loaded the campaign yet.
import { describe, expect, it, vi } from 'vitest'
import { encodeHandoff, HANDOFF_PARAM } from '../../src/api/handoff.ts'
import type { StorageLike } from '../../src/queue/storage.ts'
import { updateCampaign } from '../support/campaign-owner.ts'
import { sendAll, settle, useAttributionClock } from '../support/cookie-world.ts'
import { DAY } from '../support/delivery-world.ts'
import { createWorld } from '../support/harness.ts'

useAttributionClock()

const APP = 'https://app.other.test'

/** The app's sign-up page reached with a hand-off of `code`, captured `age` ago. */
const handoffUrl = (code: string, visitorId: string, age: number) =>
  `${APP}/signup?${HANDOFF_PARAM}=${encodeHandoff({
    code,
    visitorId,
    capturedAt: Date.now() - age,
    handoffAt: Date.now(),
  })}`

const storageKeys = (storage: StorageLike) =>
  Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '')

/** The visitor id kept in `storage`. */
function storedVisitor(storage: StorageLike): string | undefined {
  const key = storageKeys(storage).find((name) => name.endsWith(':visitor'))
  return key === undefined ? undefined : JSON.parse(storage.getItem(key) ?? '{}').id
}

/** Alice's and mallory's links, and one browser's storage on the app's domain. */
async function setUp() {
  const world = createWorld()
  const alice = await world.makeLink('alice')
  const mallory = await world.makeLink('mallory')
  const storage = world.createMemoryStorage()
  const page = (href: string, options: Parameters<typeof world.tab>[0] = {}) =>
    world.tab({ href, storage, campaign: 'on-demand', ...options })
  return { world, alice, mallory, storage, page }
}

describe('a hand-off on a page that holds a referral', () => {
  it('with first-touch, a made-up hand-off claiming an older capture does not displace it; the sign-up credits the first referrer', async () => {
    const { world, alice, mallory, page } = await setUp()
    const first = page(`${APP}/?ref=${alice}`, { attribution: 'first' })
    const visitorId = first.getAttribution()?.visitorId
    await sendAll() // the click delivered
    first.destroy()
    const forged = page(handoffUrl(mallory, 'v_MalloryVisitor01', 10 * DAY), {
      attribution: 'first',
    })
    expect(forged.getAttribution()).toMatchObject({ code: alice, visitorId })
    forged.track('signup', { userId: 'user_victim' })
    await sendAll()
    expect((await world.campaign()).stats.totalConversions).toBe(1)
    const conversions = world.service.store.conversionsOfCode(
      { org: 'org_acme', mode: 'test' },
      alice,
    )
    expect(conversions).toHaveLength(1)
    forged.destroy()
  })

  it.each(['first', 'last'] as const)(
    'with %s-touch, a hand-off of an older capture changes neither the referral nor the visitor',
    async (attribution) => {
      const { alice, mallory, page } = await setUp()
      const first = page(`${APP}/?ref=${alice}`, { attribution })
      const held = first.getAttribution()
      first.destroy()
      const old = page(handoffUrl(mallory, 'v_OtherVisitorId01', 100 * DAY), { attribution })
      expect(old.getAttribution()).toEqual(held)
      old.destroy()
    },
  )

  it("one captured past the campaign's window, once a page knew it, is not adopted: the visitor stays this page's", async () => {
    const { mallory, storage, page } = await setUp()
    const known = page(`${APP}/`, { campaign: 'eager' }) // the seeded campaign: 30 days
    known.track('signup', { userId: 'user_1' }) // a visitor id is made and kept
    await settle()
    const visitor = storedVisitor(storage)
    expect(visitor).toMatch(/^v_/)
    known.destroy()
    const old = page(handoffUrl(mallory, 'v_OtherVisitorId01', 40 * DAY))
    expect(old.getAttribution()).toBeNull()
    expect(storedVisitor(storage)).toBe(visitor)
    old.destroy()
  })
})

describe("the campaign's window", () => {
  it('a 40-day-old capture handed off is held on a page that has not loaded a 90-day campaign yet', async () => {
    const { world, alice, page } = await setUp()
    await updateCampaign(world, { attributionWindow: '90d' })
    const app = page(handoffUrl(alice, 'v_ShopVisitorId0001', 40 * DAY))
    expect(app.getAttribution()).toMatchObject({ code: alice, visitorId: 'v_ShopVisitorId0001' })
    app.destroy()
  })

  it('learned on one page, it decides first-touch on the next: a 40-day-old first referral still holds', async () => {
    const { world, alice, mallory, page } = await setUp()
    await updateCampaign(world, { attributionWindow: '90d' })
    const arrival = page(`${APP}/?ref=${alice}`, { attribution: 'first', campaign: 'eager' })
    await settle()
    await sendAll()
    arrival.destroy()
    vi.setSystemTime(Date.now() + 40 * DAY) // the next page, without the campaign
    const next = page(`${APP}/?ref=${mallory}`, { attribution: 'first' })
    expect(next.getAttribution()?.code).toBe(alice)
    next.destroy()
  })

  it('a stored window the contract does not allow (storage tampered with) is not used', async () => {
    const { alice, storage, page } = await setUp()
    const known = page(`${APP}/`, { campaign: 'eager' })
    await settle()
    known.destroy()
    const key = storageKeys(storage).find((name) => name.endsWith(':window'))
    expect(key).toBeDefined()
    storage.setItem(key ?? '', '{"v":1,"days":-1}')
    const arrival = page(`${APP}/?ref=${alice}`)
    expect(arrival.getAttribution()?.code).toBe(alice)
    arrival.destroy()
  })
})
