// A widget and a service in one process: the service's app.fetch behind a fault injector,
// shared fake time for both, memory storage that two "tabs" can share.
import { createService } from '../../demo/service/app.ts'
import { createSystemClock } from '../../demo/service/clock.ts'
import type { FetchLike } from '../../src/api/client.ts'
import type { Campaign, EventResult, TrackedEvent } from '../../src/api/schemas.ts'
import { createReferral, type ReferralOptions } from '../../src/core/create-referral.ts'
import type { CookieJar, Host } from '../../src/core/host.ts'
import { createMemoryStorage, type StorageLike } from '../../src/queue/storage.ts'

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

  async function makeLink(referrerId = 'alice') {
    const response = await service.app.request('/v1/links', {
      method: 'POST',
      headers: { Authorization: 'Bearer pk_test_acme', 'Content-Type': 'application/json' },
      body: JSON.stringify({ campaignId: 'camp_acmeFriendsAndFamily', referrerId }),
    })
    return ((await response.json()) as { code: string }).code
  }

  /** A page ("tab") running the widget. Tabs made with the same storage share it. */
  function tab(
    overrides: Partial<ReferralOptions> & {
      href?: string
      storage?: StorageLike
      replaceUrl?: (url: string) => void
      /** The visitor's Global Privacy Control signal. */
      gpc?: boolean
      /** The page's cookies (default: none). */
      cookie?: CookieJar
    } = {},
  ) {
    const { href, replaceUrl, gpc = false, cookie, ...rest } = overrides
    const host: Partial<Host> = {
      href: () => href,
      replaceUrl: replaceUrl ?? (() => {}),
      isOnline: () => online,
      listen: (name, listener) => {
        if (name !== 'online') return () => {}
        onlineListeners.add(listener)
        return () => onlineListeners.delete(listener)
      },
      locks: undefined,
      sendBeacon: undefined,
      globalPrivacyControl: gpc,
      cookie,
    }
    return createReferral({
      publicKey: 'pk_test_acme',
      apiBase: API,
      fetch,
      storage: createMemoryStorage(),
      now: () => Date.now(),
      landingUrl: 'https://shop.test/',
      locks: null,
      host,
      ...rest,
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
    makeLink,
    tab,
    setOnline(value: boolean) {
      online = value
      if (value) for (const listener of onlineListeners) listener(new Event('online'))
    },
    createMemoryStorage,
  }
}
