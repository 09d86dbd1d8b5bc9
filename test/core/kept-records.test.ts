// Records the loader kept before the tracking part ran (core/kept.ts) are recorded as if the whole
// widget had been there when the call was made: a sign-up kept on a subdomain carries the referral
// and the visitor id the site's shared cookie holds, as a call made after the part ran does.
import { describe, expect, it } from 'vitest'
import { keptKey, keptText } from '../../src/core/kept.ts'
import { parsePublicKey } from '../../src/core/keys.ts'
import { START, sendAll, sentEvents, setUp, useAttributionClock } from '../support/cookie-world.ts'

useAttributionClock()

const NAMESPACE = `referral:test:${parsePublicKey('pk_test_acme').hash}:`
/** This page load's number, as the loader names its records. */
const PAGE = 4242.5

/** A storage holding what the loader kept on this page: carol's sign-up, with no code. */
function keptSignup(world: Awaited<ReturnType<typeof setUp>>['world'], at = Date.now()) {
  const storage = world.createMemoryStorage()
  const text = keptText('signup', ['carol', undefined])?.replace(/^1 \d+/, `1 ${at}`) ?? ''
  storage.setItem(keptKey(NAMESPACE, PAGE, 0), text)
  return storage
}

describe('a sign-up the loader kept on another subdomain', () => {
  it('carries the code and visitor id of the shared cookie: one conversion', async () => {
    const { world, code, page } = await setUp()
    const www = page('www.shop.test', `/?ref=${code}`)
    const clicks = sentEvents(www)
    await sendAll()
    const visitorId = clicks[0]?.visitorId
    expect(visitorId).toMatch(/^v_/)

    const app = page('app.shop.test', '/welcome', { storage: keptSignup(world) })
    const signups = sentEvents(app)
    await sendAll()
    expect(signups).toEqual([
      expect.objectContaining({ type: 'signup', userId: 'carol', code, visitorId }),
    ])
    const { stats } = await world.campaign()
    expect(stats).toMatchObject({ totalClicks: 1, totalConversions: 1 })
    www.destroy()
    app.destroy()
  })

  it('a record older than the cookie’s capture is not credited to it (the widget then held none)', async () => {
    const { world, code, page } = await setUp()
    const storage = keptSignup(world, START - 60_000)
    const www = page('www.shop.test', `/?ref=${code}`)
    await sendAll()
    const app = page('app.shop.test', '/welcome', { storage })
    const signups = sentEvents(app)
    await sendAll()
    expect(signups).toEqual([expect.objectContaining({ type: 'signup', userId: 'carol' })])
    expect(signups[0]?.code).toBeUndefined()
    // The page itself adopts the cookie all the same: a later sign-up carries it.
    expect(app.getAttribution()).toMatchObject({ code })
    const { stats } = await world.campaign()
    expect(stats).toMatchObject({ totalClicks: 1, totalConversions: 0 })
    www.destroy()
    app.destroy()
  })
})
