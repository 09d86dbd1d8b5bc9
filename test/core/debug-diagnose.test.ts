// @vitest-environment happy-dom
// diagnose(): one plain-object report of this install in this visitor's browser, and the arrival
// decisions debug mode reads from what a page came with: a first-touch referral kept over a later
// one, a referral past its window, Global Privacy Control, the referrer's own browser.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
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

const DAY = 24 * 60 * 60 * 1000
const settle = () => vi.advanceTimersByTimeAsync(SEND_DELAY_MS + 2_000)

describe('diagnose()', () => {
  it('reports the key, the service, the campaign, storage, consent, the referral held, the queue and the decisions', async () => {
    debugConsole()
    const world = createWorld()
    const code = await world.makeLink('alice')
    const tab = world.tab({ href: `https://shop.test/?ref=${code}` })
    tab.track('signup', { userId: 'lee' })
    await settle()
    vi.setSystemTime(Date.now() + 2 * DAY)
    const report = await tab.diagnose()
    expect(JSON.parse(JSON.stringify(report))).toEqual(report) // plain data
    expect(report.key).toEqual({ mode: 'test', host: 'shop.test', matchesHost: true })
    expect(report.service).toMatchObject({ reachable: true, status: 200, problem: null })
    expect(report.campaign).toMatchObject({ active: true, windowDays: 30 })
    expect(report.storage).toEqual({ localStorage: 'ok', cookie: 'off', cookieDomain: null })
    expect(report.consent).toEqual({
      required: false,
      state: 'not required',
      gpc: false,
      gpcHonored: false,
    })
    expect(report.referral).toMatchObject({
      code,
      ageDays: 2,
      windowLeftDays: 28,
      keptIn: ['storage'],
    })
    expect(report.queue).toEqual({ waiting: 0, connection: 'online', nextTry: null })
    expect(report.decisions.map((decision) => decision.code)).toEqual(
      expect.arrayContaining(['referral_captured', 'accepted']),
    )
    tab.destroy()
  })

  it('a page whose cookies throw (a sandboxed frame): the shared cookie is reported refused, nothing thrown', async () => {
    debugConsole()
    const world = createWorld()
    const throwing = {
      get: (): string => {
        throw new DOMException('The operation is insecure.', 'SecurityError')
      },
      set: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError')
      },
    }
    const tab = world.tab({
      cookieDomain: 'shop.test',
      cookie: throwing,
      href: 'https://shop.test/',
    })
    const report = await tab.diagnose()
    expect(report.storage).toMatchObject({ cookie: 'refused', cookieDomain: 'shop.test' })
    expect(report.decisions.map((decision) => decision.code)).toContain('cookie_domain_refused')
    tab.destroy()
  })

  it('names why the service cannot be reached', async () => {
    debugConsole()
    const world = createWorld()
    const tab = world.tab({ href: 'https://shop.test/' })
    world.setOnline(false)
    const asked = tab.diagnose()
    await vi.advanceTimersByTimeAsync(60_000) // the request's retries, on the test's clock
    const report = await asked
    expect(report.service).toMatchObject({ reachable: false, status: null })
    expect(report.service.problem).toMatch(/^The referral service could not be reached/)
    tab.destroy()
  })
})

describe('the arrival, as debug mode tells it', () => {
  it('first touch: a later link is not kept', async () => {
    const lines = debugConsole()
    const world = createWorld()
    const storage = world.createMemoryStorage()
    const alice = await world.makeLink('alice')
    const bob = await world.makeLink('bob')
    world.tab({ storage, attribution: 'first', href: `https://shop.test/?ref=${alice}` }).destroy()
    const tab = world.tab({
      storage,
      attribution: 'first',
      debug: true,
      href: `https://shop.test/?ref=${bob}`,
    })
    expect(await lines.printed('referral_kept_first')).toContain(
      `Referral ${bob} was not kept: ${alice} came first`,
    )
    tab.destroy()
  })

  it('a referral past its window is let go', async () => {
    const lines = debugConsole()
    const world = createWorld()
    const storage = world.createMemoryStorage()
    const alice = await world.makeLink('alice')
    world.tab({ storage, href: `https://shop.test/?ref=${alice}` }).destroy()
    vi.setSystemTime(Date.now() + 400 * DAY)
    const tab = world.tab({ storage, debug: true, href: 'https://shop.test/pricing' })
    expect(await lines.printed('referral_expired')).toContain(`Referral ${alice} is past`)
    tab.destroy()
  })

  it('Global Privacy Control honoured: the visit is not recorded', async () => {
    const lines = debugConsole()
    const world = createWorld()
    const alice = await world.makeLink('alice')
    const tab = world.tab({
      honorGpc: true,
      gpc: true,
      debug: true,
      href: `https://shop.test/?ref=${alice}`,
    })
    expect(await lines.printed('gpc')).toContain('Global Privacy Control is on')
    tab.destroy()
  })

  it("the referrer's own browser: their link credits no one", async () => {
    const lines = debugConsole()
    const world = createWorld()
    const storage = world.createMemoryStorage()
    const owner = world.tab({ storage, userId: 'alice', href: 'https://shop.test/account' })
    const link = await owner.getLink()
    owner.destroy()
    const tab = world.tab({ storage, debug: true, href: `https://shop.test/?ref=${link.code}` })
    await settle()
    expect(await lines.printed('self_referral')).toContain(`${link.code} is the referrer's own`)
    tab.destroy()
  })

  it('two cores with one key on the page: a second copy of the widget', async () => {
    const lines = debugConsole()
    const world = createWorld()
    const first = world.tab({ href: 'https://shop.test/' })
    const second = world.tab({ debug: true, href: 'https://shop.test/' })
    expect(await lines.printed('duplicate_tag')).toContain(
      '2 copies of the widget run on this page',
    )
    first.destroy()
    second.destroy()
  })
})
