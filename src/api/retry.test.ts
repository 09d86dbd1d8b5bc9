import { describe, expect, it } from 'vitest'
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  backoffMs,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
} from './retry.ts'

// A whole second, so HTTP-dates (which have no milliseconds) land exactly.
const NOW = Date.UTC(2025, 0, 15, 12, 0, 0)

describe('retryAfterMs', () => {
  it('reads delay-seconds', () => {
    expect(retryAfterMs('7', NOW)).toBe(7000)
    expect(retryAfterMs('1', NOW)).toBe(1000)
    expect(retryAfterMs('60', NOW)).toBe(60_000)
    expect(retryAfterMs(' 7 ', NOW)).toBe(7000)
  })

  it('reads an IMF-fixdate HTTP-date relative to now', () => {
    expect(retryAfterMs(new Date(NOW + 30_000).toUTCString(), NOW)).toBe(30_000)
    expect(retryAfterMs('Wed, 15 Jan 2025 12:02:00 GMT', NOW)).toBe(120_000)
  })

  it('reads the obsolete RFC 850 HTTP-date form, which recipients must accept (RFC 9110 5.6.7)', () => {
    expect(retryAfterMs('Wednesday, 15-Jan-25 12:00:45 GMT', NOW)).toBe(45_000)
  })

  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty', ''],
    ['blank', '   '],
    ['zero', '0'],
    ['negative', '-5'],
    ['garbage', 'soon'],
    ['a number with a unit', '7s'],
    ['a fraction', '1.5e3'],
    ['a date in the past', 'Wed, 15 Jan 2025 11:59:00 GMT'],
    ['a date equal to now', 'Wed, 15 Jan 2025 12:00:00 GMT'],
    ['a malformed date', 'Wed, 99 Foo 2025 99:99:99 GMT'],
  ])('means no wait when %s', (_, header) => {
    expect(retryAfterMs(header, NOW)).toBe(0)
  })

  it('caps absurdly long waits at one hour', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(3_600_000)
    expect(retryAfterMs('3600', NOW)).toBe(3_600_000)
    expect(retryAfterMs('3601', NOW)).toBe(MAX_RETRY_AFTER_MS)
    expect(retryAfterMs('99999999999999999999999', NOW)).toBe(MAX_RETRY_AFTER_MS)
    expect(retryAfterMs('Fri, 31 Dec 9999 23:59:59 GMT', NOW)).toBe(MAX_RETRY_AFTER_MS)
  })
})

describe('backoffMs', () => {
  it('doubles a 1 s base per attempt, scaled by the jitter draw', () => {
    expect(BACKOFF_BASE_MS).toBe(1000)
    expect(backoffMs(0, 0.5)).toBe(500)
    expect(backoffMs(1, 0.5)).toBe(1000)
    expect(backoffMs(2, 0.5)).toBe(2000)
    expect(backoffMs(3, 0.5)).toBe(4000)
    expect(backoffMs(4, 0.25)).toBe(4000)
  })

  it('uses full jitter: anywhere from 0 up to the ceiling', () => {
    expect(backoffMs(3, 0)).toBe(0)
    expect(backoffMs(3, 0.999)).toBe(7992)
    expect(backoffMs(3, 0.1)).toBe(800)
  })

  it('caps the ceiling at 60 s however many attempts have failed', () => {
    expect(BACKOFF_CAP_MS).toBe(60_000)
    expect(backoffMs(5, 0.5)).toBe(16_000)
    expect(backoffMs(6, 0.5)).toBe(30_000) // 64 s ceiling capped to 60 s
    expect(backoffMs(6, 0.999)).toBe(59_940)
    expect(backoffMs(30, 0.5)).toBe(30_000)
    expect(backoffMs(5000, 0.5)).toBe(30_000)
  })

  it('never exceeds the cap nor goes below zero, even for out-of-range draws', () => {
    expect(backoffMs(20, 1)).toBe(60_000)
    expect(backoffMs(20, 7)).toBe(60_000)
    expect(backoffMs(2, -3)).toBe(0)
  })

  it('treats a negative attempt as the first', () => {
    expect(backoffMs(-4, 0.5)).toBe(500)
  })

  it('returns whole milliseconds', () => {
    expect(backoffMs(0, 0.3333)).toBe(333)
  })
})
