// Properties of the retry policy for any input a header, a stored delivery state or an injected
// random source can produce: a wait is always a finite number of milliseconds within its cap.
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { fuzzOptions, fuzzTimeout } from '../../test/support/fuzz.ts'
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  backoffMs,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
} from './retry.ts'

const runs = fuzzOptions
// A longer hunt (FUZZ_RUNS) gets the time it needs.
vi.setConfig({ testTimeout: fuzzTimeout(50) })

/** Any clock reading a host could inject, from far past to far future. */
const anyNow = fc.oneof(
  fc.integer({ min: -8.64e15, max: 8.64e15 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)
/** Clock readings of the kind Date.now() gives: whole milliseconds. */
const integerNow = fc.integer({ min: -8.64e15, max: 8.64e15 })

/** Whole-second instants an HTTP-date can name (four-digit years). */
const httpInstant = fc
  .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z') })
  .filter((date) => !Number.isNaN(date.getTime()))
  .map((date) => Math.floor(date.getTime() / 1000) * 1000)

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
/** The obsolete RFC 850 form, e.g. `Wednesday, 15-Jan-25 12:00:45 GMT`. */
const rfc850 = (at: number) => {
  const date = new Date(at)
  const [, day, month, year, time] = date.toUTCString().split(' ')
  return `${WEEKDAYS[(date.getUTCDay() + 6) % 7]}, ${day}-${month}-${year?.slice(-2)} ${time} GMT`
}

const whitespace = fc.constantFrom('', ' ', '\t', '  ', '\u00a0', '\n')

/** Anything a Retry-After header (or a proxy mangling one) can carry. */
const anyHeader = fc.oneof(
  fc.constantFrom(undefined, null, '', ' ', '0', '-1', '1e3', '0x10', 'Infinity', 'NaN'),
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.stringMatching(/^\s*-?\d{1,400}(\.\d*)?\s*$/),
  fc
    .tuple(whitespace, httpInstant, whitespace)
    .map(([a, at, b]) => a + new Date(at).toUTCString() + b),
  httpInstant.map(rfc850),
  fc
    .tuple(fc.constantFrom('Mon, ', 'Wednesday, ', 'Xyz, ', 'abc '), fc.string())
    .map(([day, rest]) => day + rest),
)

describe('retryAfterMs', () => {
  it('never throws and always gives a finite wait within [0, MAX_RETRY_AFTER_MS]', () => {
    fc.assert(
      fc.property(anyHeader, anyNow, (header, now) => {
        const wait = retryAfterMs(header, now)
        expect(Number.isFinite(wait)).toBe(true)
        expect(wait).toBeGreaterThanOrEqual(0)
        expect(wait).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS)
      }),
      runs,
    )
  })

  it('is a whole number of milliseconds when the clock reads whole milliseconds', () => {
    fc.assert(
      fc.property(anyHeader, integerNow, (header, now) => {
        expect(Number.isInteger(retryAfterMs(header, now))).toBe(true)
      }),
      runs,
    )
  })

  it('reads delay-seconds, surrounded by whitespace or not, as seconds up to the cap', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.nat(3),
        whitespace,
        whitespace,
        anyNow,
        (seconds, zeros, before, after, now) => {
          const header = `${before}${'0'.repeat(zeros)}${seconds}${after}`
          const expected = Math.min(Number(seconds) * 1000, MAX_RETRY_AFTER_MS)
          expect(retryAfterMs(header, now)).toBe(expected)
        },
      ),
      runs,
    )
  })

  it('reads an IMF-fixdate or RFC 850 HTTP-date as the time left until it, up to the cap', () => {
    fc.assert(
      fc.property(httpInstant, integerNow, fc.boolean(), (at, now, obsolete) => {
        // RFC 850 dates have two-digit years: only compare them within a century of now.
        fc.pre(!obsolete || (at >= Date.UTC(1970, 0, 1) && at < Date.UTC(2050, 0, 1)))
        const header = obsolete ? rfc850(at) : new Date(at).toUTCString()
        const expected = Math.min(Math.max(at - now, 0), MAX_RETRY_AFTER_MS)
        expect(retryAfterMs(header, now)).toBe(expected)
      }),
      runs,
    )
  })

  it('a later HTTP-date never means a shorter wait', () => {
    fc.assert(
      fc.property(httpInstant, httpInstant, anyNow, (a, b, now) => {
        const [early, late] = a <= b ? [a, b] : [b, a]
        expect(retryAfterMs(new Date(early).toUTCString(), now)).toBeLessThanOrEqual(
          retryAfterMs(new Date(late).toUTCString(), now),
        )
      }),
      runs,
    )
  })
})

/** Attempt counts from a stored delivery state: any finite number a broken store may hold. */
const anyAttempt = fc.oneof(
  fc.integer(),
  fc.integer({ min: -2000, max: 2000 }),
  fc.constantFrom(
    0,
    1,
    -1,
    1023,
    1024,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ),
)
/** What an injected random source returns: in [0, 1], and out of range too. */
const anyRandom = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, 1, -0, 1 - Number.EPSILON, -1, 2, Number.MIN_VALUE),
)

describe('backoffMs', () => {
  it('always gives a whole number of milliseconds within [0, BACKOFF_CAP_MS]', () => {
    fc.assert(
      fc.property(anyAttempt, anyRandom, (attempt, random) => {
        const wait = backoffMs(attempt, random)
        expect(Number.isInteger(wait)).toBe(true)
        expect(wait).toBeGreaterThanOrEqual(0)
        expect(wait).toBeLessThanOrEqual(BACKOFF_CAP_MS)
      }),
      runs,
    )
  })

  it('is full jitter: floor(random × min(cap, base × 2^attempt)), below the ceiling', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, random) => {
          const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt)
          const wait = backoffMs(attempt, random)
          expect(wait).toBe(Math.floor(ceiling * random))
          expect(wait).toBeLessThan(ceiling)
        },
      ),
      runs,
    )
  })

  it('never shrinks as attempts grow or as random grows', () => {
    fc.assert(
      fc.property(anyAttempt, anyAttempt, anyRandom, anyRandom, (a, b, r, s) => {
        const [few, many] = a <= b ? [a, b] : [b, a]
        const [low, high] = r <= s ? [r, s] : [s, r]
        expect(backoffMs(few, low)).toBeLessThanOrEqual(backoffMs(many, low))
        expect(backoffMs(few, low)).toBeLessThanOrEqual(backoffMs(few, high))
      }),
      runs,
    )
  })

  // NaN must not pass through the clamps (Math.max/Math.min return NaN): a NaN wait would make
  // the queue retry a failing service at once, without a pause.
  it('a NaN random or attempt still gives a finite wait within the cap', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyAttempt.map((attempt) => [attempt, Number.NaN] as const),
          anyRandom.map((random) => [Number.NaN, random] as const),
        ),
        ([attempt, random]) => {
          const wait = backoffMs(attempt, random)
          expect(Number.isFinite(wait)).toBe(true)
          expect(wait).toBeGreaterThanOrEqual(0)
          expect(wait).toBeLessThanOrEqual(BACKOFF_CAP_MS)
        },
      ),
      { ...runs, examples: [[[0, Number.NaN]]] },
    )
  })
})
