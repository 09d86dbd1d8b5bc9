// @vitest-environment node
// Signed identity in the widget (issue 15): the user token reaches the service with the link
// request and the summary, never storage or the console; an expired token is renewed once
// through onTokenExpired; the referrer's results appear in $summary, and a service without the
// extension (or a refused token) leaves it empty, never an error.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { signUserToken } from '../../src/server/user-token.ts'
import { ConfigError } from '../../src/shared/errors.ts'
import { resetWarnings } from '../../src/shared/log.ts'
import { updateCampaign } from '../support/campaign-owner.ts'
import { createWorld } from '../support/harness.ts'

const START = Date.UTC(2026, 10, 2, 9)
const CAMPAIGN = 'camp_acmeFriendsAndFamily'
const settle = () => vi.advanceTimersByTimeAsync(0)
/** Until `check` passes: the service signs and verifies tokens with Web Crypto, off the fake clock. */
const until = (check: () => void) => vi.waitFor(check, { timeout: 2000, interval: 5 })

let world: ReturnType<typeof createWorld>
let logged: string[]

beforeEach(() => {
  vi.useFakeTimers({ now: START })
  resetWarnings()
  world = createWorld()
  logged = []
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '))
    })
  }
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const mint = (userId: string, expiresInSeconds = 3600) =>
  signUserToken({ secretKey: 'sk_test_acme', userId, expiresInSeconds })

/** Alice's token, minted two hours ago for a minute: expired now. */
const expiredToken = () =>
  signUserToken({
    secretKey: 'sk_test_acme',
    userId: 'alice',
    expiresInSeconds: 60,
    now: () => START - 2 * 60 * 60 * 1000,
  })

async function requireTokens(required: boolean) {
  await updateCampaign(world, { requireUserToken: required }, CAMPAIGN)
}

/** A referred visitor signs up through `code` (another browser, its own storage). */
async function referredSignup(code: string, userId: string) {
  const friend = world.tab({
    href: `https://shop.test/?ref=${code}`,
    storage: createMemoryStorage(),
  })
  friend.track('signup', { userId })
  await friend.flush()
  friend.destroy()
}

const linkError = (referral: { $link: { get(): unknown } }) => {
  const state = referral.$link.get() as {
    status: string
    error?: { code?: string; message?: string }
  }
  return state.status === 'error' ? state.error?.code : state.status
}

describe('the user token on the link request', () => {
  it('a campaign that requires one: no token, an error state; with the token, the link', async () => {
    await requireTokens(true)
    const storage = createMemoryStorage()
    const without = world.tab({ userId: 'alice', storage })
    await settle()
    expect(linkError(without)).toBe('user_token_required')
    without.destroy()

    const token = await mint('alice')
    const referral = world.tab({ userId: 'alice', userToken: token, storage })
    await until(() => expect(referral.$link.get().status).toBe('ready'))
    const body = world.sent.find(
      (request) => request.path === '/v1/links' && request.status === 201,
    )
    expect(body).toBeDefined()
    // Nowhere but in the request: not in storage, not on the console.
    const stored = Array.from({ length: storage.length }, (_, i) =>
      storage.getItem(storage.key(i) ?? ''),
    )
    expect(stored.join('\n')).not.toContain(token)
    expect(logged.join('\n')).not.toContain(token)
  })

  it('identify(userId, { token }) after an error state loads the link', async () => {
    await requireTokens(true)
    const referral = world.tab({ userId: 'alice' })
    await until(() => expect(linkError(referral)).toBe('user_token_required'))
    referral.identify('alice', { token: await mint('alice') })
    await until(() => expect(referral.$link.get().status).toBe('ready'))
  })

  it("another user's token is refused by the service: the link is an error, not the other user's", async () => {
    await requireTokens(true)
    const referral = world.tab({ userId: 'alice', userToken: await mint('bob') })
    await until(() => expect(linkError(referral)).toBe('user_token_mismatch'))
  })

  it('a token that is not shaped like one: a ConfigError that never quotes it', async () => {
    const forged = 'v1.not-a-token.at-all'
    expect(() => world.tab({ userId: 'alice', userToken: forged })).toThrow(ConfigError)
    try {
      world.tab({ userId: 'alice', userToken: forged })
    } catch (error) {
      expect((error as Error).message).toBe(
        'userToken is refused: a user token is v1.<payload>.<signature>, minted by your server with signUserToken.',
      )
    }
    const referral = world.tab({ userId: 'alice' })
    expect(() => referral.identify('alice', { token: forged })).toThrow(/userToken is refused/)
    expect(logged.join('\n')).not.toContain('not-a-token')
  })

  it('a new user without a token drops the previous user’s token', async () => {
    await requireTokens(true)
    const referral = world.tab({ userId: 'alice', userToken: await mint('alice') })
    await until(() => expect(referral.$link.get().status).toBe('ready'))
    referral.identify('bob')
    await until(() => expect(linkError(referral)).toBe('user_token_required'))
  })
})

describe('onTokenExpired', () => {
  it('is called once when the token expired, and the request is retried with the fresh one', async () => {
    await requireTokens(true)
    const expired = await expiredToken()
    const fresh = await mint('alice')
    const onTokenExpired = vi.fn(async () => fresh)
    const referral = world.tab({ userId: 'alice', userToken: expired, onTokenExpired })
    await until(() => expect(referral.$link.get().status).toBe('ready'))
    expect(onTokenExpired).toHaveBeenCalledTimes(1)
    const linkRequests = world.sent.filter((request) => request.path === '/v1/links')
    expect(linkRequests.map((request) => request.status)).toEqual([401, 201])
  })

  it('a fresh token that expired too: one renewal, then the error state (no loop)', async () => {
    await requireTokens(true)
    const onTokenExpired = vi.fn(expiredToken)
    const referral = world.tab({
      userId: 'alice',
      userToken: await expiredToken(),
      onTokenExpired,
    })
    await until(() => expect(linkError(referral)).toBe('user_token_expired'))
    expect(onTokenExpired).toHaveBeenCalledTimes(1)
    expect(world.sent.filter((request) => request.path === '/v1/links')).toHaveLength(2)
  })

  it('a callback that gives something else: the error names the callback, never the value', async () => {
    await requireTokens(true)
    const expired = await expiredToken()
    const referral = world.tab({
      userId: 'alice',
      userToken: expired,
      onTokenExpired: async () => 'secret-but-wrong',
    })
    await until(() => expect(referral.$link.get().status).toBe('error'))
    const state = referral.$link.get() as { status: string; error?: Error }
    expect(state.error?.message).toBe(
      'onTokenExpired() result is refused: a user token is v1.<payload>.<signature>, minted by your server with signUserToken.',
    )
    expect(logged.join('\n')).not.toContain('secret-but-wrong')
  })
})

describe("the referrer's summary", () => {
  it('counts the friends who joined and what was earned; refreshed after flush()', async () => {
    const referral = world.tab({ userId: 'alice', userToken: await mint('alice') })
    await until(() => expect(referral.$summary.get()).toMatchObject({ signups: 0, conversions: 0 }))
    const code = (referral.$link.get() as { link: { code: string } }).link.code

    await referredSignup(code, 'friend-1')
    await referral.flush()
    await until(() =>
      expect(referral.$summary.get()).toMatchObject({ code, signups: 1, conversions: 1 }),
    )
    const summary = referral.$summary.get()
    expect(summary?.rewardsEarned.amount).toBeGreaterThan(0)
    // Figures only: nothing that names the friend.
    expect(JSON.stringify(summary)).not.toContain('friend-1')
  })

  it('no token: no summary request at all', async () => {
    const referral = world.tab({ userId: 'alice' })
    await settle()
    referral.refreshSummary()
    await settle()
    expect(referral.$summary.get()).toBeNull()
    expect(world.sent.some((request) => request.path.endsWith('/summary'))).toBe(false)
  })

  it('a service without the route (404): no summary, no error event, nothing on the console', async () => {
    const referral = world.tab({ userId: 'alice', userToken: await mint('alice') })
    const errors: unknown[] = []
    referral.on('error', (event) => errors.push(event))
    await until(() => expect(referral.$summary.get()).not.toBeNull())
    const notFound = {
      error: { type: 'invalid_request_error', code: 'not_found', message: 'No such route.' },
    }
    world.faults.push({ kind: 'status', status: 404, body: notFound })
    referral.refreshSummary()
    await until(() => expect(referral.$summary.get()).toBeNull())
    expect(world.sent.at(-1)).toMatchObject({ status: 404 })
    expect(errors).toEqual([])
    expect(referral.$link.get().status).toBe('ready')
    expect(logged).toEqual([])
  })

  it('a refused token (401): no summary, one console warning naming the code only', async () => {
    const token = await mint('alice')
    const referral = world.tab({ userId: 'alice', userToken: token })
    await until(() => expect(referral.$summary.get()).not.toBeNull())
    world.faults.push({
      kind: 'status',
      status: 401,
      body: {
        error: { type: 'authentication_error', code: 'user_token_invalid', message: 'Bad token.' },
      },
    })
    referral.refreshSummary()
    await until(() => expect(referral.$summary.get()).toBeNull())
    expect(logged).toEqual([
      "[referral] The referrer's results are not shown: the service refused the user token (user_token_invalid).",
    ])
    expect(referral.$link.get().status).toBe('ready')
  })
})

describe('a token given later', () => {
  it('for the user whose link is shown: their results are read at once', async () => {
    const referral = world.tab({ userId: 'alice' })
    await until(() => expect(referral.$link.get().status).toBe('ready'))
    expect(referral.$summary.get()).toBeNull()
    referral.identify('alice', { token: await mint('alice') })
    await until(() => expect(referral.$summary.get()).toMatchObject({ signups: 0 }))
  })
})
