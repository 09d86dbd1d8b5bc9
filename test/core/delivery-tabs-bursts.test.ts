// Many tabs of one site tracking steadily at once (WIDGET.md section 4): each tab sends its own
// events, one pass at a time under the sender lock, but the requests follow the clock, not the
// tabs. A pass sends what was stored when it began; after a request any tab sent, the others wait
// the coalescing window; so six tabs make about one request a second, every event accepted once,
// and no lock is held while idle. Requests take 80 ms here, as they do over a network, so a pass
// is long enough for the other tabs to store more meanwhile.
import { describe, expect, it, vi } from 'vitest'
import type { FetchLike } from '../../src/api/client.ts'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { ids, record, useDeliveryScenarios } from '../support/delivery-scenarios.ts'
import { MINUTE, SECOND, settle } from '../support/delivery-world.ts'
import { createFakeLocks } from '../support/fake-locks.ts'

const { scene, open, idsInRequests, counted } = useDeliveryScenarios()

/** The world's fetch, each answer 80 ms after the request (on the fake clock). */
const slowFetch = (): FetchLike => (input, init) =>
  new Promise((resolve, reject) => {
    setTimeout(() => scene.world.fetch(input, init).then(resolve, reject), 80)
  })

/** Six tabs sharing storage and Web Locks; each tracks `calls` sign-ups, one every `everyMs`. */
async function sixTabsTracking(calls: number, everyMs: number) {
  const storage = scene.world.createMemoryStorage()
  const fakeLocks = createFakeLocks()
  const tabs = Array.from({ length: 6 }, () =>
    open({ storage, storageEvents: true, locks: fakeLocks.locks, fetch: slowFetch() }),
  )
  await settle()
  const seen = tabs.map(record)
  for (let n = 0; n < calls; n++) {
    tabs.forEach((tab, t) => {
      // The tabs' timers are not in step: each tracks at its own offset within the interval.
      setTimeout(() => tab.track('signup', { userId: `t${t}-${n}` }), (t * everyMs) / 6)
    })
    await vi.advanceTimersByTimeAsync(everyMs)
  }
  await vi.advanceTimersByTimeAsync(MINUTE)
  return { tabs, seen, fakeLocks }
}

describe('six tabs tracking steadily', () => {
  it.each([
    [20, 30],
    [100, 30],
  ])(
    'a sign-up every %i ms, %i each: about one request a window, each event once',
    async (everyMs, calls) => {
      const { tabs, seen } = await sixTabsTracking(calls, everyMs)
      const tracked = seen.flatMap((log) => ids(log.queued))
      expect(tracked).toHaveLength(6 * calls)
      const sent = idsInRequests()
      expect(new Set(sent).size).toBe(sent.length) // no event in two requests
      expect([...sent].sort()).toEqual([...tracked].sort())
      expect(await counted(tracked)).toEqual(tracked.map(() => 'duplicate'))
      // One request per coalescing window while they track, the last batch's besides (at most
      // 100 events a request): well within the contract's 100 requests a minute per key.
      const windows = Math.ceil((calls * everyMs) / SEND_DELAY_MS) + 1
      expect(scene.world.eventRequests().length).toBeLessThanOrEqual(windows + 2)
      expect(tabs.map((tab) => tab.queueSize())).toEqual([0, 0, 0, 0, 0, 0])
    },
  )

  it('holds no lock while idle, between the windows and after', async () => {
    const { fakeLocks } = await sixTabsTracking(10, 100)
    expect(fakeLocks.isHeld()).toBe(false)
    expect(fakeLocks.waitingFor()).toBe(0)
    await vi.advanceTimersByTimeAsync(5 * SECOND)
    expect(fakeLocks.isHeld()).toBe(false)
  })
})
