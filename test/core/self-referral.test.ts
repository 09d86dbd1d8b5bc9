// A referrer can't earn from their own link in the browser that showed it to them: an arrival
// there through it records no click, holds no referral, and tells the page (`selfreferral`); a
// second account signed up there converts nothing. A friend's browser is unchanged. The link
// request says which visitor asked (an extension), and works on against a service that refuses it.
import { describe, expect, it, vi } from 'vitest'
import { sendAll, useAttributionClock } from '../support/cookie-world.ts'
import { createWorld } from '../support/harness.ts'

useAttributionClock()

/** alice's browser, where her panel (getLink) showed her link; the code of it. */
async function referrerBrowser() {
  const world = createWorld()
  const storage = world.createMemoryStorage()
  const account = world.tab({ href: 'https://shop.test/account', storage, userId: 'alice' })
  const link = await account.getLink()
  await sendAll()
  return { world, storage, code: link.code }
}

describe("the referrer's own browser", () => {
  it('following their own link: no click, no referral held, the page hears selfreferral', async () => {
    const { world, storage, code } = await referrerBrowser()
    const heard: unknown[] = []
    const arrival = world.tab({ href: `https://shop.test/?ref=${code}`, storage })
    arrival.on('selfreferral', (payload) => heard.push(payload))
    await sendAll()
    expect(heard).toEqual([{ code }])
    expect(arrival.getAttribution()).toBeNull()
    expect(arrival.track('click', { code })).toBe(false)
    expect((await world.campaign()).stats.totalClicks).toBe(0)
  })

  it('arriving through their own link before the panel showed it: the referral let go, the click taken back', async () => {
    const world = createWorld()
    const storage = world.createMemoryStorage()
    const code = await world.makeLink('alice') // made on another device
    const arrival = world.tab({ href: `https://shop.test/?ref=${code}`, storage })
    await sendAll()
    expect((await world.campaign()).stats.totalClicks).toBe(1)
    const heard: unknown[] = []
    arrival.on('selfreferral', (payload) => heard.push(payload))

    // alice signs in there and her panel shows her link: the same verdict as the other order.
    arrival.identify('alice')
    expect((await arrival.getLink()).code).toBe(code)
    await sendAll()
    expect(heard).toEqual([{ code }])
    expect(arrival.getAttribution()).toBeNull()
    expect(arrival.$attribution.get()).toBeNull()
    expect((await world.campaign()).stats).toMatchObject({ totalClicks: 0, selfReferrals: 1 })
    arrival.track('signup', { userId: 'alice-second' })
    await sendAll()
    expect((await world.campaign()).stats).toMatchObject({ totalConversions: 0 })
  })

  it('a second account signed up there converts nothing', async () => {
    const { world, storage, code } = await referrerBrowser()
    world.tab({ href: `https://shop.test/?ref=${code}`, storage })
    await sendAll()
    const signup = world.tab({ href: 'https://shop.test/welcome', storage })
    expect(signup.track('signup', { userId: 'alice-second' })).toBe(true)
    await sendAll()
    const { stats } = await world.campaign()
    expect(stats).toMatchObject({ totalClicks: 0, totalConversions: 0 })
  })

  it('forget() clears the links it showed, with the rest', async () => {
    const { world, storage, code } = await referrerBrowser()
    world.tab({ href: 'https://shop.test/privacy', storage }).forget()
    const arrival = world.tab({ href: `https://shop.test/?ref=${code}`, storage })
    expect(arrival.getAttribution()?.code).toBe(code)
  })

  it('counts nothing for its window only: after the campaign’s 30 days, the code is a referral again', async () => {
    const { world, storage, code } = await referrerBrowser()
    await sendAll()
    vi.setSystemTime(Date.now() + 31 * 24 * 60 * 60 * 1000)
    const arrival = world.tab({ href: `https://shop.test/?ref=${code}`, storage })
    expect(arrival.getAttribution()?.code).toBe(code)
  })
})

describe("a friend's browser", () => {
  it('one click, one conversion, as before', async () => {
    const { world, code } = await referrerBrowser()
    const storage = world.createMemoryStorage()
    const arrival = world.tab({ href: `https://shop.test/?ref=${code}`, storage })
    expect(arrival.getAttribution()?.code).toBe(code)
    await sendAll()
    world.tab({ href: 'https://shop.test/welcome', storage }).track('signup', { userId: 'bob' })
    await sendAll()
    expect((await world.campaign()).stats).toMatchObject({ totalClicks: 1, totalConversions: 1 })
  })
})

describe('the link request', () => {
  /** A browser whose link requests are seen (their bodies) before the service answers. */
  function watched(world: ReturnType<typeof createWorld>, refuseVisitorId = false) {
    const bodies: Array<Record<string, unknown>> = []
    const statuses: number[] = []
    const fetch: typeof world.fetch = async (input, init) => {
      if (!String(input).endsWith('/v1/links')) return world.fetch(input, init)
      const body = JSON.parse(String(init.body)) as Record<string, unknown>
      bodies.push(body)
      // A service with only the seed's interface: an unknown field is refused.
      const answer =
        refuseVisitorId && 'visitorId' in body
          ? Response.json(
              {
                error: {
                  type: 'invalid_request_error',
                  code: 'parameter_unknown',
                  message: 'Unknown field: visitorId.',
                  param: 'visitorId',
                },
              },
              { status: 400 },
            )
          : await world.fetch(input, init)
      statuses.push(answer.status)
      return answer
    }
    const storage = world.createMemoryStorage()
    const open = () =>
      world.tab({ href: 'https://shop.test/account', storage, userId: 'alice', fetch })
    return { bodies, statuses, open }
  }

  it("carries the asking browser's visitor id: the same from one browser, another from another", async () => {
    const world = createWorld()
    const mine = watched(world)
    await mine.open().getLink()
    const again = mine.open()
    again.identify('bob')
    await again.getLink()
    const other = watched(world)
    await other.open().getLink()
    const [first, second] = mine.bodies
    expect(first?.visitorId).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(second?.visitorId).toBe(first?.visitorId)
    expect(other.bodies[0]?.visitorId).not.toBe(first?.visitorId)
  })

  it('a service with only the seed’s interface refuses the field: asked again without it, once', async () => {
    const world = createWorld()
    const seedOnly = watched(world, true)
    const account = seedOnly.open()
    const link = await account.getLink()
    expect(link.code).toMatch(/^[A-Za-z0-9]{8,12}$/)
    expect(seedOnly.statuses).toEqual([400, 201])
    expect(seedOnly.bodies.map((body) => 'visitorId' in body)).toEqual([true, false])
    // The next link this page asks for goes without it at once.
    account.identify('bob')
    await account.getLink()
    expect(seedOnly.statuses).toEqual([400, 201, 201])
  })
})
