// createReferral as an SPA developer meets it: options, campaign and link, cache, attribution,
// storage namespacing, and clean-up. Delivery under faults is in delivery.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createReferral } from '../../src/core/create-referral.ts'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { ConfigError } from '../../src/shared/errors.ts'
import { resetWarnings } from '../../src/shared/log.ts'
import { API, createWorld } from '../support/harness.ts'

const START = Date.UTC(2026, 10, 2, 9)
const DAY = 24 * 60 * 60 * 1000

beforeEach(() => {
  vi.useFakeTimers({ now: START })
  resetWarnings()
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** Lets the widget's requests and timers due now run. */
const settle = () => vi.advanceTimersByTimeAsync(0)

describe('options', () => {
  const base = { apiBase: API, storage: createMemoryStorage() }

  it.each([
    [
      'a secret key',
      { publicKey: 'sk_test_acme' },
      'publicKey',
      /Secret keys must never reach a browser/,
    ],
    [
      'a live secret key',
      { publicKey: 'sk_live_acme' },
      'publicKey',
      /Secret keys must never reach a browser/,
    ],
    ['no key', { publicKey: '' }, 'publicKey', /public key is required/],
    ['a malformed key', { publicKey: 'pk_prod_acme' }, 'publicKey', /not a valid public key/],
    ['a short key', { publicKey: 'pk_test_ab' }, 'publicKey', /not a valid public key/],
    ['no apiBase', { publicKey: 'pk_test_acme', apiBase: '' }, 'apiBase', /apiBase is required/],
    [
      'a javascript: apiBase',
      { publicKey: 'pk_test_acme', apiBase: 'javascript:alert(1)' },
      'apiBase',
      /http: or https:/,
    ],
    [
      'a bad campaign id',
      { publicKey: 'pk_test_acme', campaignId: 'summer' },
      'campaignId',
      /camp_/,
    ],
    [
      'a javascript: landing URL',
      { publicKey: 'pk_test_acme', landingUrl: 'javascript:alert(1)' },
      'landingUrl',
      /http: or https:/,
    ],
    [
      'a bad ref param',
      { publicKey: 'pk_test_acme', refParam: 'ref,<x>' },
      'refParam',
      /parameter name/,
    ],
    ['a bad user id', { publicKey: 'pk_test_acme', userId: 'a b' }, 'userId', /letters, digits/],
    [
      'a bad theme',
      { publicKey: 'pk_test_acme', theme: 'neon' as 'dark' },
      'theme',
      /light, dark or auto/,
    ],
  ])(
    'refuses %s with a ConfigError naming the option, and sends nothing',
    (_, options, option, message) => {
      const fetch = vi.fn()
      let thrown: unknown
      try {
        createReferral({ ...base, fetch, ...options })
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(ConfigError)
      expect((thrown as ConfigError).option).toBe(option)
      expect((thrown as ConfigError).message).toMatch(message)
      expect(fetch).not.toHaveBeenCalled()
    },
  )
})

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
    await world.service.app.request('/v1/campaigns/camp_acmeFriendsAndFamily', {
      method: 'PATCH',
      headers: { Authorization: 'Bearer sk_test_acme', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Acme spring' }),
    })
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
    await world.service.app.request('/v1/campaigns/camp_acmeFriendsAndFamily', {
      method: 'PATCH',
      headers: { Authorization: 'Bearer sk_test_acme', 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'paused' }),
    })
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

describe('attribution from the address bar', () => {
  it('captures a code from any configured parameter and cleans only those parameters', async () => {
    const world = createWorld()
    const code = await world.makeLink()
    const replaced: string[] = []
    const tab = world.tab({
      href: `https://shop.test/pricing?plan=pro&via=${code}#faq`,
      refParam: 'ref,via',
      replaceUrl: (url) => replaced.push(url),
    })
    expect(tab.getAttribution()).toMatchObject({ code, capturedAt: new Date(START).toISOString() })
    expect(tab.getAttribution()?.visitorId).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(replaced).toEqual(['https://shop.test/pricing?plan=pro#faq'])
    tab.destroy()
  })

  it('leaves the address bar alone with cleanUrl: false', () => {
    const world = createWorld()
    const replaced: string[] = []
    const tab = world.tab({
      href: 'https://shop.test/?ref=AbCdEfGh12',
      cleanUrl: false,
      replaceUrl: (url) => replaced.push(url),
    })
    expect(tab.getAttribution()?.code).toBe('AbCdEfGh12')
    expect(replaced).toEqual([])
    tab.destroy()
  })

  it('never stores or sends a hostile code, and still removes it from the address bar', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const replaced: string[] = []
    const tab = world.tab({
      storage,
      href: `https://shop.test/?ref=${encodeURIComponent('"><img src=x onerror=alert(1)>')}`,
      replaceUrl: (url) => replaced.push(url),
    })
    await settle()
    expect(tab.getAttribution()).toBeNull()
    expect(tab.queueSize()).toBe(0)
    expect(replaced).toEqual(['https://shop.test/'])
    expect(world.eventRequests()).toEqual([])
    tab.destroy()
  })

  it('expires after the campaign’s attribution window', async () => {
    const world = createWorld()
    const code = await world.makeLink()
    const storage = createMemoryStorage()
    const tab = world.tab({ storage, href: `https://shop.test/?ref=${code}` })
    await settle()
    tab.destroy()
    vi.setSystemTime(START + 30 * DAY - 1000)
    const later = world.tab({ storage })
    await settle()
    expect(later.getAttribution()?.code).toBe(code)
    later.destroy()
    vi.setSystemTime(START + 30 * DAY + 1000)
    const tooLate = world.tab({ storage })
    await settle()
    expect(tooLate.getAttribution()).toBeNull()
    tooLate.destroy()
  })
})

describe('storage', () => {
  it('keeps each key’s data under referral:<mode>:<hash>: and never stores the key itself', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const tab = world.tab({ storage, userId: 'alice', href: 'https://shop.test/?ref=AbCdEfGh12' })
    await tab.getLink()
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '')
    expect(keys.length).toBeGreaterThan(2)
    for (const key of keys) expect(key).toMatch(/^referral:test:[a-z0-9]+:/)
    const dump = keys.map((key) => `${key}=${storage.getItem(key)}`).join('\n')
    expect(dump).not.toContain('pk_test_acme')
    tab.destroy()

    // A live key of the same organization and a key of another site never see these.
    const live = createReferral({
      publicKey: 'pk_live_acme',
      apiBase: API,
      storage,
      fetch: world.fetch,
      host: { href: () => undefined },
    })
    expect(live.getAttribution()).toBeNull()
    live.destroy()
  })

  it('forget() erases every key of this namespace and nothing else', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    storage.setItem('host-app:cart', '3 items')
    storage.setItem('referral:live:other:visitor', '{"v":1,"id":"v_someoneelse"}')
    const tab = world.tab({ storage, href: 'https://shop.test/?ref=AbCdEfGh12' })
    world.setOnline(false)
    expect(tab.getAttribution()).not.toBeNull()
    tab.forget()
    expect(tab.getAttribution()).toBeNull()
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i))
    expect(keys.filter((key) => key?.startsWith('referral:test:'))).toEqual([])
    expect(storage.getItem('host-app:cart')).toBe('3 items')
    expect(storage.getItem('referral:live:other:visitor')).not.toBeNull()
    tab.destroy()
  })
})

describe('start-up announcements', () => {
  it('reach listeners attached right after creation, even when everything came from cache', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const first = world.tab({ storage, userId: 'alice' })
    await first.getLink()
    first.destroy()

    const code = await world.makeLink('zoe')
    const second = world.tab({ storage, userId: 'alice', href: `https://shop.test/?ref=${code}` })
    const heard: string[] = []
    second.on('ready', () => heard.push('ready'))
    second.on('link', () => heard.push('link'))
    second.on('event:queued', ({ event }) => heard.push(`queued ${event.type}`))
    await settle()
    expect(heard.sort()).toEqual(['link', 'queued click', 'ready'])
    // Once the start-up task is over, a new listener hears only what happens next.
    const late = vi.fn()
    second.on('ready', late)
    await settle()
    expect(late).not.toHaveBeenCalled()
    second.destroy()
  })
})

describe('lifecycle', () => {
  it('on() returns an unsubscribe function', () => {
    const world = createWorld()
    const tab = world.tab()
    const queued = vi.fn()
    const stop = tab.on('event:queued', queued)
    tab.track('signup', { userId: 'u1' })
    stop()
    tab.track('signup', { userId: 'u2' })
    expect(queued).toHaveBeenCalledTimes(1)
    tab.destroy()
  })

  it('track() reports bad input on the console and never throws', () => {
    const world = createWorld()
    const tab = world.tab()
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(tab.track('signup', { userId: 'has spaces' })).toBe(false)
    expect(tab.track('click', {})).toBe(false)
    expect(tab.track('purchase' as 'signup', { userId: 'u1' })).toBe(false)
    expect(error).toHaveBeenCalledTimes(3)
    expect(String(error.mock.calls[0]?.[0])).toMatch(
      /^\[referral\] userId="[^"]*" is refused: a user id is 1-128 letters/,
    )
    expect(tab.queueSize()).toBe(0)
    tab.destroy()
  })

  it('destroy() stops sending: no request after it, and the queue stays stored', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const tab = world.tab({ storage })
    await settle()
    world.faults.push({ kind: 'status', status: 503 })
    tab.track('signup', { userId: 'u1' })
    await settle()
    const requests = world.sent.length
    tab.destroy()
    await vi.advanceTimersByTimeAsync(10 * 60 * 1000)
    expect(world.sent.length).toBe(requests)
    const next = world.tab({ storage })
    expect(next.queueSize()).toBe(1)
    next.destroy()
  })
})
