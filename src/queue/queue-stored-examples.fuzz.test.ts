// Stored values that fuzzing found broken (queue.fuzz.test.ts), kept as examples: a date beyond
// the Date range, a broken delivery state, an event held beside one that is sent, and an
// attribution captured in the future.
import { describe, expect, it } from 'vitest'
import { DAY, NAMESPACE, START, storedEvents } from '../../test/support/stored-data-model.ts'
import { run, useFakeTimeAndQuietConsoles } from '../../test/support/stored-data-run.ts'
import type { StoredWorld } from '../../test/support/stored-data-world.ts'
import type { TrackedEvent } from '../api/wire.ts'

useFakeTimeAndQuietConsoles()

describe('stored values found broken by fuzzing, kept as examples', () => {
  const withNamed = (named: StoredWorld['named']): StoredWorld => ({
    named,
    chunks: [],
    wellFormed: [
      'a',
      {
        v: 1,
        events: [
          {
            id: 'e_stored01',
            type: 'click',
            code: 'AAaa00Aa',
            visitorId: 'v_stored01',
            queuedAt: START,
            attempts: 0,
          },
        ],
      },
    ],
    foreign: [],
    arrived: false,
    dated: true,
    seed: 1,
  })

  it('starts over a stored attribution whose capturedAt is beyond the Date range', async () => {
    // Once, createReferral threw RangeError: Invalid time value (getAttribution → toISOString).
    await run(withNamed({ attribution: '{"v":1,"code":"AAaa00Aa","capturedAt":1e20}' }))
  })

  it('removes a broken delivery state it read', async () => {
    const result = await run(withNamed({ delivery: '{"v":2}' }))
    // Gone, or replaced by the coalescing window of a request the run sent.
    const stored = result.storage.getItem(`${NAMESPACE}delivery`)
    expect(stored === null || stored.startsWith('{"v":1,"pausedUntil":0,"attempt":0,')).toBe(true)
  })

  it('keeps an event held for looking too old when another event of its chunk is sent', async () => {
    // Without the service's time, an event 8 days old by the device clock waits for it; the send
    // of a fresh event stored beside it must not rewrite the chunk without it.
    const result = await run({
      ...withNamed({}),
      dated: false,
      wellFormed: [
        'a',
        {
          v: 1,
          events: [
            {
              id: 'e_heldEvent01',
              type: 'signup',
              userId: 'carol',
              visitorId: 'v_stored01',
              queuedAt: START - 8 * DAY,
              attempts: 0,
            },
            {
              id: 'e_freshEvent1',
              type: 'signup',
              userId: 'dave',
              visitorId: 'v_stored01',
              queuedAt: START,
              attempts: 0,
            },
          ],
        },
      ],
    })
    const sentIds = result.sentEvents.map((event) => (event as TrackedEvent).id)
    expect(sentIds).toContain('e_freshEvent1')
    expect(sentIds).not.toContain('e_heldEvent01')
    expect(result.dropped).toEqual([])
    expect(result.sizeAtEnd).toBe(1)
    expect(storedEvents(result.storage.getItem(`${NAMESPACE}q:a`) ?? '').map((e) => e.id)).toEqual([
      'e_heldEvent01',
    ])
  })

  it('does not trust an attribution captured in the future', async () => {
    // A capture a year ahead (a clock that jumped back, or forged data) is discarded, as leases
    // and delivery times treat such a future.
    const capturedAt = START + 365 * DAY
    const result = await run(
      withNamed({ attribution: JSON.stringify({ v: 1, code: 'AAaa00Aa', capturedAt }) }),
    )
    expect(result.attribution).toBeNull()
  })
})
