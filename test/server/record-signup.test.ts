// recordSignup (referral-widget/server) against the local service, in-process: what a site's
// backend sees when it records its sign-ups, and what it refuses before any request.
import { describe, expect, it, vi } from 'vitest'
import { encodeAttribution } from '../../src/api/attribution-cookie.ts'
import {
  ATTRIBUTION_COOKIE,
  RecordSignupError,
  readAttribution,
  recordSignup,
} from '../../src/server.ts'
import { DEMO_CAMPAIGNS } from '../service/helpers.ts'
import { virtualTime } from '../support/virtual-time.ts'
import {
  API,
  expectRefusedBeforeRequest,
  forbidden,
  inBrowserPage,
  localService,
  neverAnswering,
  stalledBody,
} from './service-world.ts'

function world() {
  const local = localService()
  const { service, time, fetchSpy, options, linkCode, send, captured } = local
  const record = (userId: string, extra: Partial<Parameters<typeof recordSignup>[0]> = {}) =>
    time.drive(recordSignup({ ...options, userId, ...extra }))
  const stats = () =>
    local.stats<{ totalClicks: number; totalConversions: number }>(DEMO_CAMPAIGNS.acme)
  /** A referrer's link, and a visitor's click on it, as the widget would send them. */
  const click = async (visitorId: string) => {
    const code = await linkCode(DEMO_CAMPAIGNS.acme, 'referrer-1')
    const sent = await send([{ id: `e_click_${visitorId}`, type: 'click', code, visitorId }])
    expect(sent.body.results[0]?.status).toBe('accepted')
    return captured(code, visitorId)
  }
  return { service, time, fetchSpy, record, stats, click }
}

describe('recordSignup against the local service', () => {
  it('twice for one user: accepted, then duplicate; one conversion', async () => {
    const { record, stats, click, fetchSpy } = world()
    const attribution = await click('v_visitor_0001')
    const first = await record('user-42', { attribution })
    const second = await record('user-42', { attribution })
    expect(first.status).toBe('accepted')
    expect(second).toEqual({ status: 'duplicate', eventId: first.eventId })
    expect(first.eventId).toMatch(/^su_[A-Za-z0-9_-]{43}$/)
    expect(fetchSpy).toHaveBeenCalledTimes(2)
    expect(await stats()).toMatchObject({ totalClicks: 1, totalConversions: 1 })
  })

  it("a visitor's click then the signup with that visitor's cookie: a conversion", async () => {
    const { record, stats, click, time } = world()
    const captured = await click('v_visitor_0002')
    const cookie = `sid=abc; ${ATTRIBUTION_COOKIE}=${encodeAttribution(captured)}`
    const attribution = readAttribution(cookie, { now: time.now() })
    expect(attribution).toEqual(captured)
    expect(await record('user-43', { attribution })).toMatchObject({ status: 'accepted' })
    expect((await stats()).totalConversions).toBe(1)
  })

  it('the same signup without the attribution is recorded but credits nobody', async () => {
    const { record, stats, click } = world()
    await click('v_visitor_0003')
    expect(await record('user-44', { attribution: null })).toMatchObject({ status: 'accepted' })
    expect((await stats()).totalConversions).toBe(0)
  })

  it('a 503 then success: retried after a backoff, one conversion', async () => {
    const { service, record, stats, click, time, fetchSpy } = world()
    const attribution = await click('v_visitor_0004')
    service.faults.set({ kind: 'unavailable', count: 1 })
    expect(await record('user-45', { attribution })).toMatchObject({ status: 'accepted' })
    expect(fetchSpy).toHaveBeenCalledTimes(2)
    // Full jitter with random 0.5 on the first retry: half of the 1 s base.
    expect(time.waits).toContain(500)
    expect((await stats()).totalConversions).toBe(1)
  })

  it('a 429 with Retry-After: 1 then success: waits exactly that second', async () => {
    const { service, record, time, fetchSpy } = world()
    service.faults.set({ kind: 'rate-limit', count: 1, retryAfterSeconds: 1 })
    expect(await record('user-46')).toMatchObject({ status: 'accepted' })
    expect(fetchSpy).toHaveBeenCalledTimes(2)
    expect(time.waits).toContain(1000)
    expect(time.elapsed()).toBe(1000)
  })

  it('a service that stays at 503 rejects with "timeout" within timeoutMs', async () => {
    const { service, record, time, fetchSpy } = world()
    service.faults.set({ kind: 'unavailable', count: 100 })
    const failure = await record('user-47', { timeoutMs: 10_000 }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RecordSignupError)
    expect(failure).toMatchObject({ reason: 'timeout', status: 503, code: 'service_unavailable' })
    expect((failure as RecordSignupError).attempts).toBe(fetchSpy.mock.calls.length)
    expect(fetchSpy.mock.calls.length).toBeGreaterThan(2)
    expect(time.elapsed()).toBeLessThanOrEqual(10_000)
  })

  it('a Retry-After longer than the time left: rejects at once, saying when to try again', async () => {
    const { service, record, time } = world()
    service.faults.set({ kind: 'rate-limit', count: 1, retryAfterSeconds: 60 })
    const failure = await record('user-48', { timeoutMs: 5000 }).catch((error: unknown) => error)
    expect(failure).toMatchObject({
      name: 'RecordSignupError',
      reason: 'timeout',
      status: 429,
      code: 'rate_limited',
      attempts: 1,
      retryAfterMs: 60_000,
    })
    expect((failure as Error).message).toMatch(
      /no verdict within 5000 ms \(1 request; last: 429 rate_limited; the next try was due in 60000 ms\)/,
    )
    expect(time.elapsed()).toBe(0)
  })

  it.each([
    ['a request that never answers', neverAnswering],
    ['an answer whose body stalls after the headers', stalledBody],
  ])('%s is abandoned at timeoutMs', async (_case, makeFetch) => {
    const time = virtualTime()
    const hanging = makeFetch()
    const failure = await time
      .drive(
        recordSignup({
          secretKey: 'sk_test_acme',
          apiBase: API,
          userId: 'user-49',
          fetch: hanging,
          timeoutMs: 3000,
          now: time.now,
          sleep: time.sleep,
        }),
      )
      .catch((error: unknown) => error)
    expect(failure).toMatchObject({ name: 'RecordSignupError', reason: 'timeout', attempts: 1 })
    expect(time.elapsed()).toBe(3000)
    expect(hanging.mock.calls[0]?.[1]?.signal?.aborted).toBe(true)
  })

  it('a refused request (unknown key: 401) rejects with "refused", without retrying', async () => {
    const { record, fetchSpy } = world()
    await expect(record('user-50', { secretKey: 'sk_test_nobody' })).rejects.toMatchObject({
      name: 'RecordSignupError',
      reason: 'refused',
      status: 401,
      code: 'invalid_api_key',
      attempts: 1,
    })
    expect(fetchSpy).toHaveBeenCalledTimes(1)
  })

  it('an event the service rejects resolves with its error, not a throw', async () => {
    const time = virtualTime()
    const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      const [event] = JSON.parse(String(init?.body)).events
      const error = { code: 'parameter_invalid', message: 'visitorId is not allowed here.' }
      return Response.json({ results: [{ id: event.id, status: 'rejected', error }] })
    })
    const result = await time.drive(
      recordSignup({ secretKey: 'sk_test_acme', apiBase: API, userId: 'user-51', fetch }),
    )
    expect(result).toMatchObject({
      status: 'rejected',
      error: { code: 'parameter_invalid', message: 'visitorId is not allowed here.' },
    })
  })

  it('sends one signup event with the secret key, to <apiBase>/v1/events', async () => {
    const time = virtualTime()
    const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      const [event] = JSON.parse(String(init?.body)).events
      return Response.json({ results: [{ id: event.id, status: 'accepted' }] })
    })
    const attribution = {
      code: 'AbC123xy',
      visitorId: 'v_visitor_0006',
      capturedAt: '2026-03-01T11:00:00.000Z',
    }
    await time.drive(
      recordSignup({
        secretKey: 'sk_test_acme',
        apiBase: `${API}/referral/`,
        userId: 'user-52',
        attribution,
        fetch,
        now: time.now,
      }),
    )
    const [url, init] = fetch.mock.calls[0] ?? []
    expect(url).toBe(`${API}/referral/v1/events`)
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer sk_test_acme')
    const { events } = JSON.parse(String(init?.body))
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^su_[A-Za-z0-9_-]{43}$/),
        type: 'signup',
        code: 'AbC123xy',
        visitorId: 'v_visitor_0006',
        userId: 'user-52',
        occurredAt: new Date(time.now()).toISOString(),
      },
    ])
  })

  it('without an attribution: a visitor id derived from the user id, the same on every call', async () => {
    const time = virtualTime()
    const sent: { id: string; visitorId: string; code?: string }[] = []
    const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      const [event] = JSON.parse(String(init?.body)).events
      sent.push(event)
      return Response.json({ results: [{ id: event.id, status: 'accepted' }] })
    })
    const options = { secretKey: 'sk_test_acme', apiBase: API, fetch }
    await time.drive(recordSignup({ ...options, userId: 'user-53' }))
    await time.drive(recordSignup({ ...options, userId: 'user-53' }))
    await time.drive(recordSignup({ ...options, userId: 'user-54' }))
    expect(sent[0]?.code).toBeUndefined()
    expect(sent[0]?.visitorId).toMatch(/^vu_[A-Za-z0-9_-]{32}$/)
    expect(sent[1]).toMatchObject({ id: sent[0]?.id, visitorId: sent[0]?.visitorId })
    expect(sent[2]?.id).not.toBe(sent[0]?.id)
    expect(sent[2]?.visitorId).not.toBe(sent[0]?.visitorId)
  })
})

describe('recordSignup refuses before any request', () => {
  const base = { secretKey: 'sk_test_acme', apiBase: API, userId: 'user-1', fetch: forbidden }

  it.each([
    ['a public key', { secretKey: 'pk_test_acme' }, 'secretKey', /public key \(pk_/],
    ['a malformed key', { secretKey: 'sk_acme' }, 'secretKey', /secret key such as sk_test_/],
    ['no key', { secretKey: undefined }, 'secretKey', /secretKey must be/],
    ['a relative apiBase', { apiBase: '/referral' }, 'apiBase', /absolute http\(s\) URL/],
    ['an ftp apiBase', { apiBase: 'ftp://x.test' }, 'apiBase', /start with https:\/\//],
    ['an apiBase without a scheme', { apiBase: 'localhost:8787' }, 'apiBase', /start with https/],
    ['an empty key (an unset variable)', { secretKey: '' }, 'secretKey', /It is empty/],
    ['a key with a line break', { secretKey: 'sk_test_acme\n' }, 'secretKey', /line break/],
    ['an apiBase with a query', { apiBase: `${API}?a=1` }, 'apiBase', /query/],
    ['an empty userId', { userId: '' }, 'userId', /userId must be/],
    ['a userId with a space', { userId: 'a b' }, 'userId', /userId must be/],
    ['a userId too long', { userId: 'u'.repeat(129) }, 'userId', /userId must be/],
    ['a bad attribution', { attribution: { code: 'x' } }, 'attribution', /attribution must be/],
    ['a zero timeout', { timeoutMs: 0 }, 'timeoutMs', /timeoutMs must be/],
    ['an endless timeout', { timeoutMs: Number.POSITIVE_INFINITY }, 'timeoutMs', /at most/],
  ])('%s', (_what, change, option, message) =>
    expectRefusedBeforeRequest(
      (fetch) => recordSignup({ ...base, fetch, ...change } as never),
      option,
      message,
    ),
  )

  it('inside a browser page (window and document defined)', async () => {
    const fetch = vi.fn(forbidden)
    await inBrowserPage(async () => {
      await expect(recordSignup({ ...base, fetch })).rejects.toMatchObject({
        name: 'ServerConfigError',
        option: 'environment',
      })
    })
    expect(fetch).not.toHaveBeenCalled()
  })
})
