// @vitest-environment happy-dom
// Debug mode in the core (the ESM package's way in): every decision printed once as
// `[referral] <code>: …`, with what to do and the code's section of docs/TROUBLESHOOTING.md; off,
// nothing more than before. Each scenario brings its code about for real, against the local
// service: an arrival, a sign-up with no referral, a paused campaign, an unknown code, a test key
// on a public host name, a request with no answer, a 429, consent pending and refused.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { updateCampaign } from '../support/campaign-owner.ts'
import { debugConsole } from '../support/debug-console.ts'
import { createWorld } from '../support/harness.ts'

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 2, 9) })
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  sessionStorage.clear()
})

const settle = () => vi.advanceTimersByTimeAsync(SEND_DELAY_MS + 2_000)

describe('debug mode', () => {
  it('explains an arrival through a link and the click accepted, each once, with where to read more', async () => {
    const console = debugConsole()
    const world = createWorld()
    const code = await world.makeLink('alice')
    const tab = world.tab({ debug: true, href: `https://shop.test/?ref=${code}` })
    await settle()
    expect(await console.printed('referral_captured')).toBe(
      `[referral] referral_captured: Referral ${code} captured from the address (a referral link), kept by the last-touch rule for 30 days. Within that window, a sign-up with it converts (in a first-purchase campaign, the first purchase). docs/TROUBLESHOOTING.md#referral_captured`,
    )
    expect(await console.printed('accepted')).toMatch(
      /^\[referral\] accepted: The service accepted the click e_\w+\. docs\/TROUBLESHOOTING\.md#accepted$/,
    )
    tab.track('click', { code }) // the same arrival again: nothing new to say
    await settle()
    expect(console.codes().filter((c) => c === 'referral_captured')).toHaveLength(1)
    tab.destroy()
  })

  it('off: no decision is printed, as before', async () => {
    const console = debugConsole()
    const world = createWorld()
    const code = await world.makeLink('alice')
    const tab = world.tab({ href: `https://shop.test/?ref=${code}` })
    tab.track('signup', { userId: 'dana', code: 'ZZZZZZZZ' })
    await settle()
    expect(console.codes()).toEqual([])
    tab.destroy()
  })

  it('says a sign-up in a browser with no referral will not convert, and that the address carried none', async () => {
    const console = debugConsole()
    const world = createWorld()
    const tab = world.tab({ debug: true, href: 'https://shop.test/welcome' })
    tab.track('signup', { userId: 'erin' })
    await settle()
    expect(await console.printed('no_referral')).toContain('none of the referral parameters (ref)')
    expect(await console.printed('signup_without_referral')).toContain(
      'Sign-up erin recorded, but this browser holds no referral',
    )
    tab.destroy()
  })

  it("passes the service's verdicts through: an unknown code, a paused campaign", async () => {
    const console = debugConsole()
    const world = createWorld()
    const tab = world.tab({ debug: true, href: 'https://shop.test/' })
    tab.track('click', { code: 'ZZZZZZZZ' })
    await settle()
    expect(await console.printed('unknown_code')).toContain(
      'The service knows no referral code in the click',
    )
    const code = await world.makeLink('alice')
    await updateCampaign(world, { status: 'paused' })
    tab.track('click', { code })
    await settle()
    expect(await console.printed('campaign_not_active')).toContain('The campaign is not active')
    tab.destroy()
  })

  it('warns of a test key on a public host name', async () => {
    const console = debugConsole()
    const world = createWorld()
    const tab = world.tab({ debug: true, href: 'https://www.shop-example.com/' })
    await settle()
    expect(await console.printed('key_mode_mismatch')).toContain(
      'A test key (pk_test_) runs on www.shop-example.com, a public host name',
    )
    tab.destroy()
  })

  it('tells a request with no answer while online (a blocker) from one while offline, and a 429 with its next try', async () => {
    const console = debugConsole()
    const world = createWorld()
    const tab = world.tab({ debug: true, href: 'https://shop.test/' })
    world.faults.push({ kind: 'network' })
    tab.track('signup', { userId: 'gail', code: 'ZZZZZZZZ' })
    await settle()
    expect(await console.printed('blocked_by_client')).toContain(
      'failed while the browser is online',
    )
    world.setOnline(false)
    tab.track('signup', { userId: 'hana', code: 'ZZZZZZZZ' })
    await settle()
    expect(await console.printed('offline')).toContain(
      'The browser is offline: events wait in storage',
    )
    world.setOnline(true)
    world.faults.push({ kind: 'status', status: 429, headers: { 'Retry-After': '30' } })
    await vi.advanceTimersByTimeAsync(120_000)
    expect(await console.printed('rate_limited')).toMatch(/the next try is at \d{4}-\d\d-\d\dT/)
    tab.destroy()
  })

  it('consent pending, then refused', async () => {
    const console = debugConsole()
    const world = createWorld()
    const code = await world.makeLink('alice')
    const tab = world.tab({
      debug: true,
      consent: 'required',
      href: `https://shop.test/?ref=${code}`,
    })
    await settle()
    expect(await console.printed('consent_pending')).toContain('Waiting for consent')
    tab.consent(false)
    await settle()
    expect(await console.printed('consent_refused')).toContain('Consent was refused')
    tab.destroy()
  })

  it('turned on after the fact, tells what happened before; turned off, prints nothing more', async () => {
    const console = debugConsole()
    const world = createWorld()
    const tab = world.tab({ href: 'https://shop.test/' })
    tab.track('signup', { userId: 'ivan' })
    await settle()
    expect(console.codes()).toEqual([])
    tab.debug(true)
    await settle()
    expect(await console.printed('signup_without_referral')).toBeDefined()
    tab.debug(false)
    const printed = console.lines.length
    tab.track('signup', { userId: 'jo' })
    await settle()
    expect(console.lines).toHaveLength(printed)
    tab.destroy()
  })

  it('referral_debug=1 in the address turns it on for the tab, kept in sessionStorage only; debug(false) lets it go', async () => {
    const console = debugConsole()
    const world = createWorld()
    const storage = world.createMemoryStorage()
    const first = world.tab({ storage, href: 'https://shop.test/?referral_debug=1' })
    await settle()
    expect(await console.printed('no_referral')).toBeDefined()
    expect(sessionStorage.getItem('referral_debug')).toBe('1')
    expect(JSON.stringify(Object.entries(storage))).not.toContain('referral_debug')
    first.destroy()
    const next = world.tab({ storage, href: 'https://shop.test/pricing' })
    next.track('signup', { userId: 'kim' })
    await settle()
    expect(await console.printed('signup_without_referral')).toContain('kim')
    next.debug(false)
    expect(sessionStorage.getItem('referral_debug')).toBeNull()
    next.destroy()
  })
})
