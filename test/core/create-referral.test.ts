// createReferral as an SPA developer meets it: its options, its start-up announcements and its
// lifecycle (on() and its unsubscribe, track() on bad input, destroy()). The campaign and the link
// are in create-referral-campaign.test.ts, attribution and storage namespacing in
// create-referral-attribution.test.ts, delivery under faults in delivery-*.test.ts. Time is the
// fake clock's (useFakeClock).
import { describe, expect, it, vi } from 'vitest'
import { createReferral } from '../../src/core/create-referral.ts'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { ConfigError } from '../../src/shared/errors.ts'
import { tick as settle, useFakeClock } from '../support/delivery-world.ts'
import { API, createWorld } from '../support/harness.ts'

const START = Date.UTC(2026, 10, 2, 9)
useFakeClock(START)

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
