// What the tests of referral-widget/server share: the local service in-process, reached through a
// fetch on virtual time as a site's backend reaches it, and fetches that never answer or must
// never be called.
import { expect, vi } from 'vitest'
import { ServerConfigError } from '../../src/server.ts'
import { setup } from '../service/helpers.ts'
import { virtualTime } from '../support/virtual-time.ts'

export const API = 'https://referrals.example.test'

/** The local service behind `options.fetch`, with the calls that set up and read a referral. */
export function localService() {
  const { service, call, clock } = setup()
  const time = virtualTime(clock.now())
  const fetchSpy = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
    service.app.fetch(new Request(input, init), {
      incoming: { socket: { remoteAddress: '127.0.0.1' } },
    }),
  )
  /** acme's test secret key, this service, virtual time and a jitter of one half. */
  const options = {
    secretKey: 'sk_test_acme',
    apiBase: API,
    fetch: time.tracked(fetchSpy as typeof globalThis.fetch),
    now: time.now,
    sleep: time.sleep,
    random: () => 0.5,
  }
  /** A campaign's stats, as acme's secret key reads them. */
  const stats = async <T>(campaignId: string) => {
    const answer = await call<{ stats: T }>('GET', `/v1/campaigns/${campaignId}`, {
      key: 'sk_test_acme',
    })
    return answer.body.stats
  }
  /** The code of a referrer's link, made with acme's public key as the widget makes it. */
  const linkCode = async (campaignId: string, referrerId: string) => {
    const link = await call<{ code: string }>('POST', '/v1/links', {
      key: 'pk_test_acme',
      body: { campaignId, referrerId },
    })
    return link.body.code
  }
  /** Events sent with acme's public key, as the widget sends them. */
  const send = (events: object[]) =>
    call<{ results: { status: string }[] }>('POST', '/v1/events', {
      key: 'pk_test_acme',
      body: { events },
    })
  /** What getAttribution() gives in the browser after a click on `code`, captured now. */
  const captured = (code: string, visitorId: string) => ({
    code,
    visitorId,
    capturedAt: new Date(clock.now()).toISOString(),
  })
  return { service, call, time, fetchSpy, options, stats, linkCode, send, captured }
}

/** A fetch that never answers: its promise fails only when the request is aborted. */
export const neverAnswering = () =>
  vi.fn(
    (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
      ),
  )

/**
 * A fetch whose answer is a 200's headers and then a body that never ends: its stream fails
 * only when the request is aborted, as a real fetch's does.
 */
export const stalledBody = () =>
  vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"results":['))
        init?.signal?.addEventListener('abort', () => controller.error(new Error('aborted')))
      },
    })
    return Promise.resolve(
      new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } }),
    )
  })

/** A fetch for the cases that must fail before any request is made. */
export const forbidden = () => {
  throw new Error('no request may be made')
}

/** Runs `run` with `window` and `document` defined, as inside a browser page. */
export async function inBrowserPage(run: () => Promise<void>) {
  vi.stubGlobal('window', {})
  vi.stubGlobal('document', {})
  try {
    await run()
  } finally {
    vi.unstubAllGlobals()
  }
}

/**
 * `call` (given a fetch that must not be used) fails with a ServerConfigError naming `option`,
 * with a message matching `message` that never repeats the secret key, before any request.
 */
export async function expectRefusedBeforeRequest(
  call: (fetch: typeof forbidden) => Promise<unknown>,
  option: string,
  message: RegExp,
) {
  const fetch = vi.fn(forbidden)
  const failure = await call(fetch).catch((error: unknown) => error)
  expect(failure).toBeInstanceOf(ServerConfigError)
  expect(failure).toMatchObject({ option })
  expect((failure as Error).message).toMatch(message)
  expect((failure as Error).message).not.toContain('sk_test_acme')
  expect(fetch).not.toHaveBeenCalled()
}
