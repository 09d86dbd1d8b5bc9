// A property of the widget in a hostile page (WIDGET.md sections 4 and 9): whatever the page did to
// Object.prototype and Array.prototype.toJSON, however its storage fails (now and then, or for
// good), and whatever the answers say for a while (empty or partial results, results for other
// ids, the service's own 401 and 404, 503s, a lost network), every tracked event is accepted by
// the service exactly once or announced as dropped with its reason, never counted twice; the widget's
// storage never passes its budget; and nothing is thrown into the page.
import fc from 'fast-check'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import type { FetchLike } from '../../src/api/client.ts'
import { DEFAULT_MAX_STORED_CHARS } from '../../src/queue/chunks.ts'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { resetWarnings } from '../../src/shared/log.ts'
import { fuzzOptions, fuzzTimeout } from '../support/fuzz.ts'
import { createWorld } from '../support/harness.ts'
import { flaky, seeded, storedChars } from '../support/storage.ts'

vi.setConfig({ testTimeout: fuzzTimeout(150) })

const HOUR = 60 * 60 * 1000
const START = Date.UTC(2026, 0, 15, 12)
const NAMESPACE_PREFIX = 'referral:test:'

/** Names a polluted prototype may carry: random ones, and the fields the widget reads. */
const OUR_NAMES = [
  'code',
  'userId',
  'occurredAt',
  'serviceAt',
  'queuedAt',
  'attempts',
  'events',
  'results',
  'error',
  'status',
  'v',
  'id',
  'body',
  'signal',
  'storage',
  'consent',
  'cookieDomain',
  'campaignId',
  'maxQueuedEvents',
  'fetch',
  'now',
]
const RESERVED = new Set(['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'])

const pollution = fc.array(
  fc.record({
    name: fc.oneof(
      fc.constantFrom(...OUR_NAMES),
      fc.stringMatching(/^[a-z][A-Za-z0-9]{0,8}$/).filter((name) => !RESERVED.has(name)),
    ),
    value: fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.constant(true),
      fc.constant(() => 'polluted'),
      fc.constant({}),
      fc.constant([]),
    ),
  }),
  { maxLength: 4 },
)

/** Array.prototype.toJSON as pages have had it (Prototype.js: a string of the array). */
const toJsons = {
  none: undefined,
  prototypeJs(this: unknown[]) {
    return JSON.stringify(this.slice())
  },
  nothing: () => null,
  alwaysText: () => 'array',
}

/** What one answer to POST /v1/events does, for the first requests of a run. */
const ANSWERS = [
  'normal',
  'empty',
  'partial',
  'other-ids',
  'own-401',
  'own-404',
  'status-503',
  'network',
] as const
type Answer = (typeof ANSWERS)[number]

const hostileWorld = fc.record({
  pollution,
  toJson: fc.constantFrom(...(Object.keys(toJsons) as Array<keyof typeof toJsons>)),
  /** Chance that a storage call throws while the page is hostile; 1 = storage failing for good. */
  storageFailure: fc.constantFrom(0, 0.1, 0.3, 0.6, 1),
  answers: fc.array(fc.constantFrom(...ANSWERS), { maxLength: 8 }),
  /** Signups and clicks, each after a gap (ms). */
  actions: fc.array(
    fc.record({ type: fc.constantFrom('signup', 'click'), gap: fc.integer({ min: 0, max: 3000 }) }),
    { minLength: 1, maxLength: 25 },
  ),
  maxQueuedEvents: fc.constantFrom(undefined, 5, 12),
  seed: fc.integer(),
})
type HostileWorld = typeof hostileWorld extends fc.Arbitrary<infer W> ? W : never

beforeEach(() => {
  vi.useFakeTimers({ now: START })
  for (const method of ['warn', 'error', 'info'] as const)
    vi.spyOn(console, method).mockImplementation(() => {})
})

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** The page's changes to the prototypes, made and taken back. */
function hostilePrototypes(world: HostileWorld) {
  const objects = Object.prototype as Record<string, unknown>
  const arrays = Array.prototype as { toJSON?: unknown }
  const added = new Set(world.pollution.map(({ name }) => name))
  return {
    apply() {
      for (const { name, value } of world.pollution)
        Object.defineProperty(objects, name, {
          value,
          enumerable: true,
          configurable: true,
          writable: true,
        })
      if (toJsons[world.toJson]) arrays.toJSON = toJsons[world.toJson]
    },
    lift() {
      for (const name of added) delete objects[name]
      delete arrays.toJSON
    },
  }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/**
 * The world's fetch: the first events answers as the run says, the service run outside the page,
 * and each `accepted` the service said (whatever the page was told) tallied by event id.
 */
function network(
  world: ReturnType<typeof createWorld>,
  answers: Answer[],
  page: ReturnType<typeof hostilePrototypes>,
  hostile: () => boolean,
  accepted: Map<string, number>,
): FetchLike {
  return async (input, init) => {
    page.lift()
    try {
      const isEvents = new URL(input).pathname === '/v1/events'
      const answer = isEvents && hostile() ? (answers.shift() ?? 'normal') : 'normal'
      if (answer === 'network') throw new TypeError('Failed to fetch')
      if (answer === 'status-503')
        return json(503, { error: { type: 'api_error', code: 'x', message: 'down' } })
      if (answer === 'own-401')
        return json(401, {
          error: { type: 'authentication_error', code: 'invalid_api_key', message: 'no' },
        })
      if (answer === 'own-404')
        return json(404, {
          error: { type: 'not_found_error', code: 'route_missing', message: 'no' },
        })
      const response = await world.fetch(input, init)
      if (!isEvents || !response.ok) return response
      const { results } = (await response.clone().json()) as {
        results: Array<{ id: string; status: string }>
      }
      for (const { id, status } of results)
        if (status === 'accepted') accepted.set(id, (accepted.get(id) ?? 0) + 1)
      if (answer === 'normal') return response
      const told =
        answer === 'empty'
          ? []
          : answer === 'partial'
            ? results.slice(0, 1)
            : results.map((result) => ({ ...result, id: `x${result.id}` }))
      return json(200, { results: told })
    } finally {
      if (hostile()) page.apply()
    }
  }
}

async function run(world: HostileWorld) {
  vi.clearAllTimers()
  vi.setSystemTime(START)
  resetWarnings()
  const service = createWorld()
  const codes = [await service.makeLink('alice'), await service.makeLink('carol')]
  const page = hostilePrototypes(world)
  let hostile = true
  const chance = seeded(world.seed)
  const backing = createMemoryStorage()
  const storage = flaky(backing, () => hostile && chance() < world.storageFailure)
  const queued: string[] = []
  const dropped = new Map<string, string>()
  const budget: number[] = []
  const thrown: unknown[] = []
  const accepted = new Map<string, number>()

  page.apply()
  try {
    const tab = service.tab({
      storage,
      fetch: network(service, [...world.answers], page, () => hostile, accepted),
      random: seeded(world.seed + 1),
      ...(world.maxQueuedEvents === undefined ? {} : { maxQueuedEvents: world.maxQueuedEvents }),
    })
    tab.on('event:queued', ({ event }) => queued.push(event.id))
    tab.on('event:dropped', ({ event, reason }) => dropped.set(event.id, reason))
    for (const [index, action] of world.actions.entries()) {
      try {
        if (action.type === 'signup') tab.track('signup', { userId: `user${index}` })
        else tab.track('click', { code: codes[index % 2] ?? '' })
      } catch (error) {
        thrown.push(error)
      }
      await vi.advanceTimersByTimeAsync(action.gap)
      budget.push(storedChars(backing, NAMESPACE_PREFIX))
    }
    // The page calms down: its changes are gone, storage and answers work again.
    hostile = false
    page.lift()
    // No flush: what waits must go by itself (a refusal's wait is an hour at most).
    await vi.advanceTimersByTimeAsync(3 * HOUR)
    budget.push(storedChars(backing, NAMESPACE_PREFIX))
    const size = tab.queueSize()
    tab.destroy()
    return { accepted, queued, dropped, budget, thrown, size }
  } finally {
    page.lift()
  }
}

it('every event accepted exactly once or announced as dropped; the budget kept; nothing thrown', async () => {
  await fc.assert(
    fc.asyncProperty(hostileWorld, async (world) => {
      const result = await run(world)
      expect(result.thrown).toEqual([])
      for (const chars of result.budget) expect(chars).toBeLessThanOrEqual(DEFAULT_MAX_STORED_CHARS)

      for (const id of result.queued) {
        const reason = result.dropped.get(id)
        const times = result.accepted.get(id) ?? 0
        // Dropped: announced, and never counted twice. One sent before it fell off a bound may
        // have been counted already, by an answer that did not say so.
        if (reason === undefined) expect(times, `${id} accepted`).toBe(1)
        else expect(times, `${id} dropped (${reason})`).toBeLessThanOrEqual(1)
        // Every event here is good and young: a refusal of the key, a lie or a lost answer is
        // never a reason to drop one; only a bound is.
        if (reason !== undefined) expect(reason, id).toBe('overflow')
      }
      expect(result.size).toBe(0)
    }),
    { ...fuzzOptions, numRuns: Math.max(20, Math.floor(fuzzOptions.numRuns / 2)) },
  )
})
