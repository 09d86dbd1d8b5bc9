// Page hide: what is left goes out through sendBeacon in the beacon form, and stays stored
// until the service confirms it, so a lost beacon costs nothing and a kept one counts once.
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { createReferral } from '../../src/core/create-referral.ts'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { API, createWorld } from '../support/harness.ts'

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 2, 9) })
})
afterEach(() => {
  vi.useRealTimers()
})

function page(world: ReturnType<typeof createWorld>, storage = createMemoryStorage()) {
  const listeners = new Map<string, (event: Event) => void>()
  const beacons: Array<{ url: string; body: string }> = []
  let online = true
  const referral = createReferral({
    publicKey: 'pk_test_acme',
    apiBase: API,
    fetch: world.fetch,
    storage,
    locks: null,
    host: {
      href: () => undefined,
      isOnline: () => online,
      listen: (name, listener) => {
        listeners.set(name, listener)
        return () => listeners.delete(name)
      },
      sendBeacon: (url, body) => {
        beacons.push({ url, body })
        return true
      },
    },
  })
  return {
    referral,
    beacons,
    storage,
    hide: () => listeners.get('pagehide')?.(new Event('pagehide')),
    goOffline: () => {
      online = false
    },
  }
}

it('hands waiting events to sendBeacon in the text/plain beacon form, which the service takes', async () => {
  const world = createWorld()
  const { referral, beacons, hide } = page(world)
  await vi.advanceTimersByTimeAsync(0)
  world.faults.push({ kind: 'status', status: 503 })
  referral.track('signup', { userId: 'leaving-user' })
  await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
  expect(world.eventRequests().map((request) => request.status)).toEqual([503])
  expect(referral.queueSize()).toBe(1)
  // The backoff holds every request, but not the beacon: the page is going away.
  hide()
  expect(beacons).toHaveLength(1)
  const beacon = beacons[0]
  if (!beacon) throw new Error('no beacon')
  expect(beacon.url).toBe(`${API}/v1/events`)
  const body = JSON.parse(beacon.body) as { key: string; events: Array<{ id: string }> }
  expect(body.key).toBe('pk_test_acme')
  expect(body.events).toHaveLength(1)

  // The service takes exactly this body as navigator.sendBeacon sends it.
  const answer = await world.service.app.request('/v1/events', {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    body: beacon.body,
  })
  expect(answer.status).toBe(200)
  expect(await answer.json()).toEqual({ results: [{ id: body.events[0]?.id, status: 'accepted' }] })

  // Still stored: the next try confirms it as a duplicate and it is counted once.
  expect(referral.queueSize()).toBe(1)
  await referral.flush()
  expect(referral.queueSize()).toBe(0)
  expect(await world.probe([body.events[0]?.id ?? ''])).toEqual([
    { id: body.events[0]?.id, status: 'duplicate' },
  ])
  referral.destroy()
})

it('sends no beacon while offline or with nothing waiting', async () => {
  const world = createWorld()
  const { referral, beacons, hide, goOffline } = page(world)
  await vi.advanceTimersByTimeAsync(0)
  hide()
  expect(beacons).toEqual([])
  goOffline()
  referral.track('signup', { userId: 'offline-user' })
  await vi.advanceTimersByTimeAsync(0)
  hide()
  expect(beacons).toEqual([])
  referral.destroy()
})

it('splits more than 100 waiting events over several beacons', async () => {
  const world = createWorld()
  const { referral, beacons, hide } = page(world)
  await vi.advanceTimersByTimeAsync(0)
  for (let i = 0; i < 5; i++) world.faults.push({ kind: 'network' })
  for (let i = 0; i < 250; i++) referral.track('signup', { userId: `user-${i}` })
  await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
  expect(world.eventRequests().map((request) => request.status)).toEqual(['network'])
  expect(referral.queueSize()).toBe(250)
  hide()
  const sizes = beacons.map((b) => (JSON.parse(b.body) as { events: unknown[] }).events.length)
  expect(sizes).toEqual([100, 100, 50])
  referral.destroy()
})
