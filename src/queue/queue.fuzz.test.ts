// Properties of what the widget reads back from storage (WIDGET.md section 4: "Broken or foreign
// data found in storage is discarded, not trusted"): whatever another version, another script or
// a broken write left under the widget's namespace, the widget starts, answers, flushes, sends
// only events of the contract's shape, still delivers the well-formed ones (an invalid event
// beside them is dropped alone, announced), and removes what it read and could not trust. Event
// ages are measured on the service's clock, learned from its answers' Date header: until a page
// has learned it, an event that looks too old by the device clock is held, neither sent nor
// expired. The model, the generators and the run: test/support/stored-data-*.ts; cases found
// broken by fuzzing: queue-stored-examples.fuzz.test.ts.
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { fuzzOptions, fuzzTimeout } from '../../test/support/fuzz.ts'
import {
  DAY,
  eventFields,
  field,
  isReadableChunk,
  isRecord,
  isStoredEvent,
  isWireEvent,
  jsonOf,
  NAMESPACE,
  type Slot,
  START,
  type StoredEvent,
  slotOf,
  storedEvents,
  storedValues,
  trusted,
} from '../../test/support/stored-data-model.ts'
import {
  CLOCK_SLACK,
  freshThroughout,
  LAST_PASS,
  oldThroughout,
  run,
  useFakeTimeAndQuietConsoles,
} from '../../test/support/stored-data-run.ts'
import { type StoredWorld, storedWorld } from '../../test/support/stored-data-world.ts'
import {
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  type TrackedEvent,
} from '../api/wire.ts'
import { DEFAULT_MAX_AGE_MS } from './queue.ts'

const runs = fuzzOptions
// A longer hunt (FUZZ_RUNS) gets the time it needs.
vi.setConfig({ testTimeout: fuzzTimeout(50) })

useFakeTimeAndQuietConsoles()

// --- properties -----------------------------------------------------------------------------

/**
 * Found by fuzzing: a chunk holding one id twice, once unstamped and once stamped too long ago,
 * queued long ago. Held while the service's time is unknown; once it is known, the stale copy is
 * dropped as expired and the other sent.
 */
const oneIdTwice = (dated: boolean): StoredWorld => ({
  named: {},
  chunks: [],
  wellFormed: [
    '',
    {
      v: 1,
      events: [
        {
          id: 'e_twice01',
          visitorId: 'v_twice01',
          userId: '@',
          queuedAt: START - 9 * DAY,
          attempts: 0,
          type: 'signup',
        },
        {
          id: 'e_twice01',
          code: 'aaA0A00a',
          visitorId: 'v_twice02',
          queuedAt: START - 9 * DAY,
          attempts: 0,
          serviceAt: START - 9 * DAY,
          type: 'click',
        },
        {
          id: 'e_once001',
          visitorId: 'v_once01',
          userId: '.',
          queuedAt: START - 9 * DAY,
          attempts: 0,
          type: 'signup',
        },
      ],
    },
  ],
  foreign: [],
  arrived: false,
  dated,
  seed: 0,
})

describe('the widget over arbitrary stored data', () => {
  it('starts, answers and flushes; sends only events of the contract’s shape, and every well-formed one', async () => {
    await fc.assert(
      fc.asyncProperty(storedWorld, async (world) => {
        const result = await run(world)

        expect(Number.isInteger(result.sizeAtStart)).toBe(true)
        expect(result.sizeAtStart).toBeGreaterThanOrEqual(0)
        if (result.attribution !== null) {
          expect(result.attribution.code).toMatch(CODE_PATTERN)
          expect(result.attribution.visitorId).toMatch(CLIENT_ID_PATTERN)
          expect(result.attribution.capturedAt).toMatch(ISO_TIMESTAMP_PATTERN)
        }

        // Only the contract's fields, each of the contract's shape.
        for (const event of result.sentEvents) {
          expect(isWireEvent(event)).toBe(true)
          expect(
            Object.keys(event as object).every((name) => Object.hasOwn(eventFields, name)),
          ).toBe(true)
        }

        // Sent: only well-formed stored events of this namespace and events tracked now. A chunk
        // is read event by event: its invalid events are dropped, the others kept.
        const readable = [...result.written].filter(
          ([key, raw]) => slotOf(key) === 'chunk' && isReadableChunk(jsonOf(raw)),
        )
        const trustedEvents = readable.flatMap(([, raw]) => storedEvents(raw))
        // Stored data may hold one id twice: the same event, to the service.
        const copiesOf = (id: string) => trustedEvents.filter((candidate) => candidate.id === id)
        const invalidIds = new Set(
          readable
            .flatMap(([, raw]) => storedValues(raw).filter((value) => !isStoredEvent(value)))
            .map((value) => (isRecord(value) ? field(value, 'id') : undefined))
            .filter((id) => typeof id === 'string')
            .map((id) => id.slice(0, 64)),
        )
        // A chunk that cannot be read as one is discarded; the events its text still names (an
        // object that opens with an id of the contract's shape) are announced.
        for (const [key, raw] of result.written) {
          if (slotOf(key) !== 'chunk' || isReadableChunk(jsonOf(raw))) continue
          for (const [, id] of raw.matchAll(/\{"id":"([A-Za-z0-9_-]{8,64})"/g))
            if (id !== undefined) invalidIds.add(id)
        }
        const foreignIds = new Set(
          [...result.written]
            .filter(([key]) => !key.startsWith(NAMESPACE))
            .flatMap(([, raw]) => storedEvents(raw).map((event) => event.id)),
        )
        const allowed = new Set([
          ...trustedEvents.map((event) => event.id),
          ...result.queued.map((event) => event.id),
        ])
        const sentIds = new Set(result.sentEvents.map((event) => (event as TrackedEvent).id))
        for (const id of sentIds) expect(allowed.has(id)).toBe(true)
        for (const id of foreignIds) if (!allowed.has(id)) expect(sentIds.has(id)).toBe(false)

        // Dropped out loud: an invalid stored event (by the id it carries), or a stamped one too
        // old by the service's clock, which the page has learned.
        const expiredIds = new Set<string>()
        for (const { event, reason } of result.dropped) {
          if (reason === 'invalid') {
            expect(invalidIds.has(event.id), `${event.id} was dropped as invalid`).toBe(true)
            continue
          }
          expect(reason).toBe('expired')
          expect(world.dated).toBe(true)
          // One copy of it was stamped too long ago.
          const ages = copiesOf(event.id).map(
            ({ serviceAt }) => LAST_PASS + CLOCK_SLACK - (serviceAt ?? NaN),
          )
          expect(
            ages.some((age) => age > DEFAULT_MAX_AGE_MS),
            `${event.id} expired at ages ${ages}`,
          ).toBe(true)
          expiredIds.add(event.id)
        }
        const droppedInvalid = new Set(
          result.dropped.filter(({ reason }) => reason === 'invalid').map(({ event }) => event.id),
        )
        for (const id of invalidIds) expect(droppedInvalid.has(id), `${id} is invalid`).toBe(true)

        // Every well-formed event is delivered, dropped for being too old by the service's
        // clock, or, while the page has not learned that clock, held if it looks too old.
        const held: StoredEvent[] = []
        for (const event of trustedEvents) {
          const sent = sentIds.has(event.id)
          const expired = expiredIds.has(event.id)
          if (world.dated && event.serviceAt !== undefined) {
            // Stamped with the service's time: aged on it.
            if (oldThroughout(event.serviceAt)) expect(expired, event.id).toBe(true)
            else if (freshThroughout(event.serviceAt)) expect(sent, event.id).toBe(true)
            else expect(sent || expired, event.id).toBe(true)
          } else if (world.dated) {
            // Unstamped: it starts ageing when the page learns the service's time.
            expect(sent, event.id).toBe(true)
          } else {
            // No service time: the device clock alone never expires an event. An id is held
            // while any copy of it looks too old.
            const ats = copiesOf(event.id).map((copy) => copy.serviceAt ?? copy.queuedAt)
            if (ats.some(oldThroughout)) expect(sent, event.id).toBe(false)
            else if (ats.every(freshThroughout)) expect(sent, event.id).toBe(true)
            expect(expired).toBe(false)
          }
          if (!sent && !expired) held.push(event)
        }
        for (const event of result.queued) expect(sentIds.has(event.id)).toBe(true)
        expect(result.queued.map((event) => event.type)).toContain('signup')
        // What is neither sent nor dropped is still stored, and counted.
        expect(result.sizeAtEnd).toBe(held.length)

        // Another mode's or site's data is left exactly as it was.
        for (const [key, raw] of result.written)
          if (!key.startsWith(NAMESPACE)) expect(result.storage.getItem(key)).toBe(raw)
      }),
      { ...runs, examples: [[oneIdTwice(true)], [oneIdTwice(false)]] },
    )
  })

  it('removes what it read and could not trust', async () => {
    await fc.assert(
      fc.asyncProperty(storedWorld, async (world) => {
        const result = await run(world)
        // Read in every run: the queue, the visitor (by track), the campaign and link caches.
        // The attribution is read at start (or overwritten by an arrival); the click list only
        // on an arrival; the banner only with an attribution.
        const read = new Set<Slot>(['chunk', 'visitor', 'attribution', 'campaign', 'link'])
        if (world.arrived) read.add('clicks')
        if (result.attribution !== null) read.add('banner')
        for (const [key, raw] of result.written) {
          const slot = slotOf(key)
          if (slot === undefined || !read.has(slot) || trusted(slot, raw)) continue
          const left = result.storage.getItem(key)
          expect(left === null || trusted(slot, left), `${key} still holds ${left}`).toBe(true)
        }
      }),
      runs,
    )
  })
})
