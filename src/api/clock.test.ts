import { describe, expect, it } from 'vitest'
import { createServiceClock, httpDateMs } from './clock.ts'

const NOON = Date.UTC(2026, 0, 15, 12)
const date = (ms: number) => new Date(ms).toUTCString()

describe('httpDateMs', () => {
  it('reads the three HTTP-date forms', () => {
    expect(httpDateMs('Thu, 15 Jan 2026 12:00:00 GMT')).toBe(NOON)
    expect(httpDateMs('Thursday, 15-Jan-26 12:00:00 GMT')).toBe(NOON)
    expect(httpDateMs('Thu Jan 15 12:00:00 2026')).toBe(Date.parse('Thu Jan 15 12:00:00 2026'))
  })

  it.each(['', '1', '  2', 'soon', '2026-01-15', null, undefined])('%j is no date', (value) => {
    expect(httpDateMs(value)).toBeNaN()
  })
})

describe('createServiceClock', () => {
  it('is the device clock, unknown, until an answer teaches the offset', () => {
    let device = NOON - 8 * 86_400_000
    const clock = createServiceClock(() => device)
    expect(clock.known()).toBe(false)
    expect(clock.now()).toBe(device)

    // The answer's Date names a whole second; the service's instant is taken at its middle,
    // against the middle of the exchange.
    clock.observe(date(NOON), device, device + 200)
    expect(clock.known()).toBe(true)
    expect(clock.now() - device).toBe(NOON + 500 - (device + 100))
    device += 60_000
    expect(clock.now()).toBe(NOON + 60_000 + 400)
  })

  it('follows the latest answer, and ignores answers without a usable Date', () => {
    let device = NOON
    const clock = createServiceClock(() => device)
    clock.observe(date(NOON + 3_600_000), NOON, NOON)
    clock.observe('garbage', NOON, NOON)
    clock.observe(null, NOON, NOON)
    expect(clock.now()).toBe(NOON + 3_600_500)
    // The device clock was corrected: the next answer says so.
    device = NOON + 3_600_000
    clock.observe(date(NOON + 3_600_000), device, device)
    expect(clock.now()).toBe(NOON + 3_600_500)
  })

  it('tells its listeners once, when the offset is first known', () => {
    const clock = createServiceClock(() => NOON)
    let told = 0
    clock.onKnown(() => {
      told += 1
    })
    clock.observe(null, NOON, NOON)
    expect(told).toBe(0)
    clock.observe(date(NOON), NOON, NOON)
    clock.observe(date(NOON), NOON, NOON)
    expect(told).toBe(1)
    // Once known, a new listener is not kept: there is nothing left to wait for.
    clock.onKnown(() => {
      told += 1
    })
    clock.observe(date(NOON), NOON, NOON)
    expect(told).toBe(1)
  })
})
