import { describe, expect, it } from 'vitest'
import {
  ATTRIBUTION_COOKIE,
  AttributionCookieError,
  attributionFromCookieHeader,
  cookieValues,
  decodeAttribution,
  encodeAttribution,
  MAX_ATTRIBUTION_COOKIE_LENGTH,
} from './attribution-cookie.ts'

const NOW = Date.parse('2026-03-01T12:00:00.000Z')
const DAY = 24 * 60 * 60 * 1000
const at = { now: NOW }
const attribution = {
  code: 'AbC123xy',
  visitorId: 'v_Q2r8kLm0Zt5XwY7pHn3b',
  capturedAt: '2026-02-27T09:30:15.250Z',
}
const encoded = encodeAttribution(attribution)

describe('encodeAttribution', () => {
  it('writes v1.<code>.<visitorId>.<ms in base 36>, cookie-safe and short', () => {
    expect(encoded).toBe(
      `v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${Date.parse(attribution.capturedAt).toString(36)}`,
    )
    // RFC 6265 cookie-octets without quoting: no space, quote, comma, semicolon or backslash.
    expect(encoded).toMatch(/^[A-Za-z0-9._-]+$/)
    expect(encoded.length).toBeLessThan(60)
  })

  it('takes milliseconds as well as the ISO text getAttribution() gives', () => {
    expect(
      encodeAttribution({ ...attribution, capturedAt: Date.parse(attribution.capturedAt) }),
    ).toBe(encoded)
  })

  it('the longest possible value fits under the decoder’s size limit', () => {
    const longest = encodeAttribution({
      code: 'A'.repeat(12),
      visitorId: 'v'.repeat(64),
      capturedAt: 8.64e15,
    })
    expect(longest.length).toBeLessThanOrEqual(MAX_ATTRIBUTION_COOKIE_LENGTH)
  })

  it.each([
    ['code', { code: 'short' }],
    ['code', { code: 'has.a.dot12' }],
    ['code', { code: 'ABCDEFGHIJKLM' }],
    ['visitorId', { visitorId: 'v.with.dots' }],
    ['visitorId', { visitorId: 'short' }],
    ['visitorId', { visitorId: 'v'.repeat(65) }],
    ['capturedAt', { capturedAt: 'yesterday' }],
    ['capturedAt', { capturedAt: '1' }],
    ['capturedAt', { capturedAt: -1 }],
    ['capturedAt', { capturedAt: 1.5 }],
    ['capturedAt', { capturedAt: 8.64e15 + 1 }],
    ['capturedAt', { capturedAt: Number.NaN }],
  ] as const)('refuses a bad %s (%j) with an error naming the field', (field, change) => {
    const attempt = () => encodeAttribution({ ...attribution, ...change })
    expect(attempt).toThrow(AttributionCookieError)
    try {
      attempt()
    } catch (error) {
      expect((error as AttributionCookieError).field).toBe(field)
      expect((error as Error).message).toContain(field)
    }
  })
})

describe('decodeAttribution', () => {
  it('round trip: what was encoded comes back, capturedAt as ISO text', () => {
    expect(decodeAttribution(encoded, at)).toEqual(attribution)
    const epoch = encodeAttribution({ ...attribution, capturedAt: NOW })
    expect(decodeAttribution(epoch, at)?.capturedAt).toBe(new Date(NOW).toISOString())
  })

  const time = Date.parse(attribution.capturedAt).toString(36)
  it.each([
    ['empty', ''],
    ['null', null],
    ['undefined', undefined],
    ['another version', `v2.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${time}`],
    ['no version', `AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${time}`],
    ['upper-case version', `V1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${time}`],
    ['a part missing', `v1.AbC123xy.${time}`],
    ['an extra part', `v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${time}.x`],
    ['an empty part', `v1..v_Q2r8kLm0Zt5XwY7pHn3b.${time}`],
    ['a trailing dot', `v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${time}.`],
    ['a code too short', `v1.AbC12.v_Q2r8kLm0Zt5XwY7pHn3b.${time}`],
    ['a code too long', `v1.AbC123xyABCDE.v_Q2r8kLm0Zt5XwY7pHn3b.${time}`],
    ['a code with "_"', `v1.AbC_23xy.v_Q2r8kLm0Zt5XwY7pHn3b.${time}`],
    ['a code with script', `v1.<script>.v_Q2r8kLm0Zt5XwY7pHn3b.${time}`],
    ['a visitorId too short', `v1.AbC123xy.v_Q2.${time}`],
    ['a visitorId too long', `v1.AbC123xy.${'v'.repeat(65)}.${time}`],
    ['a visitorId with "%"', `v1.AbC123xy.v_Q2r8kLm0%20XwY7pHn3b.${time}`],
    ['a time in upper case', `v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${time.toUpperCase()}`],
    ['a time with a leading zero', `v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.0${time}`],
    ['a negative time', `v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.-${time}`],
    ['a time in decimal with a point', `v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${time}.5`],
    ['surrounding spaces', ` v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${time} `],
    ['URI-encoded JSON', encodeURIComponent(JSON.stringify(attribution))],
  ])('%s → null', (_what, value) => {
    expect(decodeAttribution(value, at)).toBeNull()
  })

  it('an oversized value → null, before it is split', () => {
    const padded = `v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${time}${'.'.repeat(MAX_ATTRIBUTION_COOKIE_LENGTH)}`
    expect(decodeAttribution(padded, at)).toBeNull()
    expect(decodeAttribution('v1.'.repeat(100_000), at)).toBeNull()
  })

  it('a time beyond the Date range → null', () => {
    const beyond = `v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${(8.64e15 + 1).toString(36)}`
    expect(decodeAttribution(beyond, { now: 8.64e15 })).toBeNull()
    expect(decodeAttribution('v1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.zzzzzzzzzzz', at)).toBeNull()
  })

  it('a capture more than a day ahead of the clock → null; a little ahead (clock skew) is kept', () => {
    const ahead = (ms: number) => encodeAttribution({ ...attribution, capturedAt: NOW + ms })
    expect(decodeAttribution(ahead(DAY + 1), at)).toBeNull()
    expect(decodeAttribution(ahead(60_000), at)).not.toBeNull()
  })

  it('a capture older than the longest attribution window (365 days) → null', () => {
    const old = (days: number) =>
      encodeAttribution({ ...attribution, capturedAt: NOW - days * DAY })
    expect(decodeAttribution(old(366), at)).toBeNull()
    expect(decodeAttribution(old(364), at)).not.toBeNull()
  })
})

describe('reading a Cookie header', () => {
  it('finds the cookie among others, in any position', () => {
    for (const header of [
      `${ATTRIBUTION_COOKIE}=${encoded}`,
      `session=abc; ${ATTRIBUTION_COOKIE}=${encoded}; theme=dark`,
      `theme=dark;${ATTRIBUTION_COOKIE}=${encoded}`,
      `${ATTRIBUTION_COOKIE}="${encoded}"; a=b`,
    ]) {
      expect(attributionFromCookieHeader(header, at), header).toEqual(attribution)
    }
  })

  it('does not take a cookie whose name only contains the name', () => {
    const header = `x${ATTRIBUTION_COOKIE}=${encoded}; ${ATTRIBUTION_COOKIE}_old=${encoded}`
    expect(attributionFromCookieHeader(header, at)).toBeNull()
    expect(cookieValues(header, ATTRIBUTION_COOKIE)).toEqual([])
  })

  it('no header, no cookie, a nameless or broken pair → null', () => {
    for (const header of [null, undefined, '', 'a=b', ';;;', `=${encoded}`, ATTRIBUTION_COOKIE]) {
      expect(attributionFromCookieHeader(header, at)).toBeNull()
    }
  })

  it('the same name twice: the valid one captured last counts, a forged one is skipped', () => {
    const earlier = encodeAttribution({ ...attribution, code: 'Earlier123', capturedAt: NOW - DAY })
    const later = encodeAttribution({ ...attribution, code: 'Later12345', capturedAt: NOW - 1000 })
    const name = ATTRIBUTION_COOKIE
    expect(attributionFromCookieHeader(`${name}=${earlier}; ${name}=${later}`, at)?.code).toBe(
      'Later12345',
    )
    expect(attributionFromCookieHeader(`${name}=${later}; ${name}=${earlier}`, at)?.code).toBe(
      'Later12345',
    )
    expect(attributionFromCookieHeader(`${name}=forged; ${name}=${earlier}`, at)?.code).toBe(
      'Earlier123',
    )
    expect(cookieValues(`${name}=a; ${name}=b`, name)).toEqual(['a', 'b'])
  })
})
