// The widget as a guest in a hostile page (WIDGET.md section 9, "A guest in the host's page"):
// answers from the events endpoint that leave events out (an empty list, results for other
// ids, a partial answer).
// In each, every tracked event is accepted exactly once or announced as dropped with its reason,
// and nothing is thrown into the page.
import { describe, expect, it, vi } from 'vitest'
import type { FetchLike } from '../../src/api/client.ts'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { record, useDeliveryOutcomes } from '../support/delivery-outcomes.ts'
import { MINUTE, settle } from '../support/delivery-world.ts'
import { seeded } from '../support/storage.ts'

const { scene, openReady, expectEachOnceOrDropped } = useDeliveryOutcomes()

/** The world's fetch, with the events answer rewritten by `answer` (the request still counts). */
function answering(answer: (results: unknown[], ids: string[]) => unknown): FetchLike {
  return async (input, init) => {
    const response = await scene.world.fetch(input, init)
    if (new URL(input).pathname !== '/v1/events' || !response.ok) return response
    const { results } = (await response.json()) as { results: unknown[] }
    const { events } = JSON.parse(String(init.body)) as { events: Array<{ id: string }> }
    return new Response(
      JSON.stringify(
        answer(
          results,
          events.map((event) => event.id),
        ),
      ),
      {
        headers: { 'Content-Type': 'application/json' },
      },
    )
  }
}

describe('answers that leave events out', () => {
  it.each([
    { name: 'an empty results list', answer: () => ({ results: [] }) },
    {
      name: 'results for other ids',
      answer: (_: unknown[], ids: string[]) => ({
        results: ids.map((id) => ({ id: `x${id}`, status: 'accepted' })),
      }),
    },
  ])('$name: the events stay queued and go again with the backoff', async ({ answer }) => {
    let lying = 2
    const fetch = answering((results, ids) => (lying-- > 0 ? answer(results, ids) : { results }))
    const tab = await openReady({ fetch, random: seeded(7) })
    const seen = record(tab)
    for (let i = 0; i < 3; i++) tab.track('signup', { userId: `unanswered${i}` })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    await settle()
    expect(tab.queueSize()).toBe(3)
    expect(tab.$connection.get().state).toBe('retrying')

    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(seen.dropped).toEqual([])
    expect(tab.queueSize()).toBe(0)
    await expectEachOnceOrDropped(seen)
  })

  it('a partial answer: the events it names are done, the others go again', async () => {
    let partial = 1
    const fetch = answering((results) =>
      partial-- > 0 ? { results: results.slice(0, 1) } : { results },
    )
    const tab = await openReady({ fetch, random: seeded(8) })
    const seen = record(tab)
    for (let i = 0; i < 4; i++) tab.track('signup', { userId: `partial${i}` })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    await settle()
    expect(seen.sent).toEqual(seen.queued.slice(0, 1))
    expect(tab.queueSize()).toBe(3)

    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(tab.queueSize()).toBe(0)
    await expectEachOnceOrDropped(seen)
  })
})
