// A widget and a service in one process: the service's app.fetch behind a fault injector,
// shared fake time for both, memory storage that two "tabs" can share.
import { createService } from '../../demo/service/app.ts'
import { createSystemClock } from '../../demo/service/clock.ts'
import type { Campaign, EventResult, TrackedEvent } from '../../demo/service/schemas.ts'
import type { FetchLike } from '../../src/api/client.ts'
import { createReferralInternals } from '../../src/core/create-referral.ts'
import type { CookieJar, Host } from '../../src/core/host.ts'
import type { ReferralOptions } from '../../src/core/types.ts'
import { createMemoryStorage, type StorageLike } from '../../src/queue/storage.ts'
import type { Timers } from '../../src/shared/timers.ts'

export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  /** The request never reaches the service. */
  | { kind: 'network' }
  /** The service handles the request, but the answer is lost on the way back. */
  | { kind: 'lost-response' }
  /** The host's fetch throws before returning a promise. */
  | { kind: 'throw-sync' }

export interface Sent {
  path: string
  method: string
  /** Event ids in the request, for /v1/events. */
  eventIds: string[]
  status: number | 'network'
}

export const API = 'http://service.test'

/**
 * A page's pagehide and pageshow, and its timers frozen in between, as a browser has them for a
 * page kept in the back/forward cache: `leave(true)` hides it and freezes its timers (they fire
 * late, on `back()`); `back()` shows it again (`pageshow` with `persisted`).
 */
export function createLifecycle() {
  const listeners = new Map<string, Set<(event: Event) => void>>()
  let frozen = false
  const thawed: Array<() => void> = []
  const fire = (name: string, persisted: boolean) => {
    const event = Object.assign(new Event(name), { persisted })
    for (const listener of listeners.get(name) ?? []) listener(event)
  }
  const timers: Timers = {
    setTimeout: (callback, ms) =>
      globalThis.setTimeout(() => {
        if (frozen) thawed.push(callback)
        else callback()
      }, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  }
  return {
    timers,
    listen(name: string, listener: (event: Event) => void) {
      const set = listeners.get(name) ?? new Set()
      listeners.set(name, set)
      set.add(listener)
      return () => set.delete(listener)
    },
    /** The visitor goes to another page; `cached`: this one is kept in the back/forward cache. */
    leave(cached = true) {
      fire('pagehide', cached)
      frozen = cached
    },
    /** The visitor comes back: the page is shown from the cache, its timers run again. */
    back() {
      frozen = false
      fire('pageshow', true)
      for (const callback of thawed.splice(0)) callback()
    },
  }
}

export type Lifecycle = ReturnType<typeof createLifecycle>

/**
 * Everything reads Date.now(), so vitest's fake timers move the widget and the service
 * together (call vi.useFakeTimers() first).
 */
export function createWorld(options: { pkRateLimit?: number } = {}) {
  const clock = createSystemClock()
  const service = createService({
    clock,
    log: () => {},
    ...(options.pkRateLimit === undefined ? {} : { pkRateLimit: options.pkRateLimit }),
  })
  const faults: Fault[] = []
  const sent: Sent[] = []
  let online = true
  const onlineListeners = new Set<(event: Event) => void>()

  const fetch: FetchLike = (input, init) => {
    const url = new URL(input)
    const body =
      typeof init.body === 'string'
        ? (JSON.parse(init.body) as { events?: TrackedEvent[] })
        : undefined
    const record: Sent = {
      path: url.pathname + url.search,
      method: init.method ?? 'GET',
      eventIds: body?.events?.map((event) => event.id) ?? [],
      status: 'network',
    }
    sent.push(record)
    const fault = faults.shift()
    if (fault?.kind === 'throw-sync') throw new TypeError('fetch exploded synchronously')
    return (async () => {
      if (!online || fault?.kind === 'network') throw new TypeError('Failed to fetch')
      if (fault?.kind === 'status') {
        record.status = fault.status
        return new Response(
          JSON.stringify(
            fault.body ?? { error: { type: 'api_error', code: 'x', message: 'injected' } },
          ),
          {
            status: fault.status,
            headers: { 'Content-Type': 'application/json', ...fault.headers },
          },
        )
      }
      const response = await service.app.request(url.pathname + url.search, init, {
        incoming: { socket: { remoteAddress: '192.0.2.1' } },
      })
      record.status = response.status
      if (fault?.kind === 'lost-response') throw new TypeError('network connection lost')
      return response
    })()
  }

  /** Whole event objects the service accepted, by id, and how often. */
  const eventRequests = () => sent.filter((request) => request.path === '/v1/events')

  async function campaign(id = 'camp_acmeFriendsAndFamily'): Promise<Campaign> {
    const response = await service.app.request(`/v1/campaigns/${id}`, {
      headers: { Authorization: 'Bearer sk_test_acme' },
    })
    return (await response.json()) as Campaign
  }

  /** Asks the service directly whether these ids were counted: a duplicate means yes. */
  async function probe(ids: string[]): Promise<EventResult[]> {
    const response = await service.app.request('/v1/events', {
      method: 'POST',
      headers: { Authorization: 'Bearer pk_test_acme', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        events: ids.map((id) => ({
          id,
          type: 'signup',
          visitorId: 'probe_visitor',
          userId: 'probe',
        })),
      }),
    })
    return ((await response.json()) as { results: EventResult[] }).results
  }

  /**
   * Whether the service counted ids, 100 at a time: 'duplicate' = counted before, 'accepted' =
   * never seen (and recorded now, so call it last).
   */
  async function counted(ids: readonly string[]): Promise<string[]> {
    const statuses: string[] = []
    for (let i = 0; i < ids.length; i += 100) {
      const results = await probe(ids.slice(i, i + 100))
      statuses.push(...results.map((result) => result.status))
    }
    return statuses
  }

  async function makeLink(referrerId = 'alice') {
    const response = await service.app.request('/v1/links', {
      method: 'POST',
      headers: { Authorization: 'Bearer pk_test_acme', 'Content-Type': 'application/json' },
      body: JSON.stringify({ campaignId: 'camp_acmeFriendsAndFamily', referrerId }),
    })
    return ((await response.json()) as { code: string }).code
  }

  // The storage listeners of the tabs that asked for storage events, by the storage they share.
  const storageListeners = new Map<StorageLike, Map<symbol, (event: Event) => void>>()

  function listenToStorage(storage: StorageLike, tab: symbol, listener: (event: Event) => void) {
    const listeners = storageListeners.get(storage) ?? new Map()
    storageListeners.set(storage, listeners)
    listeners.set(tab, listener)
    return () => listeners.delete(tab)
  }

  /** The tab's view of a shared storage: its writes reach the other tabs as storage events. */
  function announcing(storage: StorageLike, writer: symbol): StorageLike {
    const announce = (key: string) => {
      for (const [tab, listener] of storageListeners.get(storage) ?? [])
        if (tab !== writer) setTimeout(() => listener({ key } as unknown as Event), 0)
    }
    return {
      get length() {
        return storage.length
      },
      key: (index) => storage.key(index),
      getItem: (key) => storage.getItem(key),
      setItem: (key, value) => {
        storage.setItem(key, value)
        announce(key)
      },
      removeItem: (key) => {
        storage.removeItem(key)
        announce(key)
      },
    }
  }

  /** A page ("tab") running the widget. Tabs made with the same storage share it. */
  function tab(
    overrides: Partial<ReferralOptions> & {
      href?: string
      storage?: StorageLike
      replaceUrl?: (url: string) => void
      /** The visitor's Global Privacy Control signal. */
      gpc?: boolean
      /**
       * As browsers do: this tab hears a `storage` event for every write another tab with
       * storage events makes to the same storage, in a task of its own.
       */
      storageEvents?: boolean
      /** The page's cookies (default: none). */
      cookie?: CookieJar
      /** This page load is a reload of the same address. */
      reloaded?: boolean
      /** The page's pagehide and pageshow, for a test to fire (createLifecycle). */
      lifecycle?: Lifecycle
    } = {},
  ) {
    const {
      href,
      replaceUrl,
      gpc = false,
      storageEvents = false,
      cookie,
      reloaded = false,
      lifecycle,
      ...rest
    } = overrides
    const storage = overrides.storage ?? createMemoryStorage()
    const tabId = Symbol('tab')
    const host: Partial<Host> = {
      href: () => href,
      replaceUrl: replaceUrl ?? (() => {}),
      isOnline: () => online,
      listen: (name, listener) => {
        if (name === 'storage' && storageEvents) return listenToStorage(storage, tabId, listener)
        if (lifecycle && (name === 'pagehide' || name === 'pageshow'))
          return lifecycle.listen(name, listener)
        if (name !== 'online') return () => {}
        onlineListeners.add(listener)
        return () => onlineListeners.delete(listener)
      },
      locks: undefined,
      sendBeacon: undefined,
      globalPrivacyControl: gpc,
      cookie,
      reloaded,
    }
    return createReferralInternals({
      publicKey: 'pk_test_acme',
      apiBase: API,
      fetch,
      now: () => Date.now(),
      landingUrl: 'https://shop.test/',
      locks: null,
      host,
      ...(lifecycle ? { timers: lifecycle.timers } : {}),
      ...rest,
      storage: storageEvents ? announcing(storage, tabId) : storage,
    })
  }

  return {
    service,
    clock,
    faults,
    sent,
    fetch,
    eventRequests,
    campaign,
    probe,
    counted,
    makeLink,
    tab,
    setOnline(value: boolean) {
      online = value
      if (value) for (const listener of onlineListeners) listener(new Event('online'))
    },
    createMemoryStorage,
  }
}
