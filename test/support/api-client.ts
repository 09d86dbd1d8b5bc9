// What the tests of the API client (src/api/client-*.test.ts) share: the service's address and
// key, a link, a campaign and an event as the service has them, a client whose fetch answers as
// a test says and records every call, and the ApiError a call fails with.
import { afterEach, vi } from 'vitest'
import type { TrackedEvent } from '../../demo/service/schemas.ts'
import { type ApiClientOptions, createApiClient, type FetchLike } from '../../src/api/client.ts'
import { referrerCalls } from '../../src/api/referrer-calls.ts'
import { ApiError } from '../../src/shared/errors.ts'

export const BASE = 'https://referrals.example'
export const KEY = 'pk_test_acme'
const CREATED = '2025-01-15T12:00:00.000Z'

export const LINK = {
  id: 'link_abcdefghijklmnop',
  code: 'ABCD1234',
  campaignId: 'camp_abcdefghijklmnop',
  referrerId: 'user_42',
  createdAt: CREATED,
}

export const CAMPAIGN = {
  id: 'camp_abcdefghijklmnop',
  name: 'Give $10, get $10',
  status: 'active',
  rewardTrigger: 'signup',
  referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
  referredReward: { type: 'credit', amount: 10, currency: 'USD' },
  attributionWindow: '30d',
  createdAt: CREATED,
}

export const EVENT: TrackedEvent = {
  id: 'evt_0123456789',
  type: 'click',
  code: 'ABCD1234',
  visitorId: 'v_0123456789',
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  })
}

/** The client with the referrer's calls on it, as the referrer's part uses them. */
export function withCalls(api: ReturnType<typeof createApiClient>) {
  const calls = referrerCalls(api)
  return {
    ...api,
    campaign: (id: string) => calls.campaign(id),
    newestActiveCampaign: () => calls.campaign(undefined),
    createLink: calls.createLink,
  }
}

/** A client whose fetch answers with `answer` and records every call. */
export function clientWith(answer: FetchLike, options: Partial<ApiClientOptions> = {}) {
  const fetch = vi.fn<FetchLike>(answer)
  const client = withCalls(createApiClient({ apiBase: BASE, publicKey: KEY, fetch, ...options }))
  const call = (index = 0) => {
    const args = fetch.mock.calls[index]
    if (!args) throw new Error(`fetch was not called ${index + 1} time(s)`)
    const [url, init] = args
    return { url, init, headers: new Headers(init.headers) }
  }
  return { client, fetch, call }
}

export async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw new Error(`expected an ApiError, got ${String(error)}`)
  }
  throw new Error('expected an ApiError, the call succeeded')
}

/** Registers the clean-up after each of the file's tests: real timers, the globals as they were. */
export function restoreTimersAndGlobals() {
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })
}
