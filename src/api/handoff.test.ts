// The hand-off's wire form: what the outbound page writes comes back on the receiving page, and
// the reader is strict: exactly that shape, fresh, is adopted; anything else is at most an
// ordinary arrival by the code it names, and never an error.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fuzzOptions } from '../../test/support/fuzz.ts'
import {
  encodeHandoff,
  HANDOFF_FRESH_MS,
  HANDOFF_PARAM,
  type Handoff,
  handoffArrival,
  MAX_HANDOFF_LENGTH,
} from './handoff.ts'
import { CLIENT_ID_PATTERN, CODE_PATTERN } from './wire.ts'

const NOW = Date.parse('2026-03-01T12:00:00.000Z')
const MINUTE = 60 * 1000
const DAY = 24 * 60 * MINUTE
const handoff: Handoff = {
  code: 'AbC123xy',
  visitorId: 'v_Q2r8kLm0Zt5XwY7pHn3b',
  capturedAt: NOW - 3 * DAY,
  handoffAt: NOW - MINUTE,
}
const b36 = (ms: number) => ms.toString(36)
/** The receiving page's address carrying `value` (encoded as a browser would). */
function arrivalAt(value: string) {
  const url = new URL('https://app.other.test/signup?plan=pro#top')
  url.searchParams.append(HANDOFF_PARAM, value)
  return url.href
}
const read = (value: string, now = NOW) => handoffArrival(arrivalAt(value), now)
const adopted = (h: Handoff) => ({
  code: h.code,
  visitorId: h.visitorId,
  capturedAt: new Date(h.capturedAt).toISOString(),
  carried: h.carried === true,
})

describe('encodeHandoff', () => {
  it('writes h1.<code>.<visitorId>.<capturedAt>.<handoffAt>, times in base 36, URL-safe', () => {
    const value = encodeHandoff(handoff)
    expect(value).toBe(
      `h1.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.${b36(handoff.capturedAt)}.${b36(handoff.handoffAt)}`,
    )
    // Unreserved characters only: nothing a URL would percent-encode.
    expect(value).toMatch(/^[A-Za-z0-9._-]+$/)
    expect(encodeURIComponent(value ?? '')).toBe(value)
  })

  it('the longest possible value fits under the reader’s size limit', () => {
    const longest = encodeHandoff({
      code: 'A'.repeat(12),
      visitorId: 'v'.repeat(64),
      capturedAt: 8.64e15,
      handoffAt: 8.64e15,
    })
    expect(longest?.length).toBe(104)
    expect(104).toBeLessThanOrEqual(MAX_HANDOFF_LENGTH)
  })

  it.each([
    { code: 'short' },
    { code: 'has.a.dot12' },
    { code: 'ABCDEFGHIJKLM' },
    { visitorId: 'v.with.dots' },
    { visitorId: 'short' },
    { visitorId: 'v'.repeat(65) },
    { capturedAt: -1 },
    { capturedAt: 1.5 },
    { capturedAt: Number.NaN },
    { handoffAt: 8.64e15 + 1 },
    { handoffAt: Number.POSITIVE_INFINITY },
  ] as Array<Partial<Handoff>>)('refuses a field outside the contract (%j): null', (change) => {
    expect(encodeHandoff({ ...handoff, ...change })).toBeNull()
  })
})

describe('handoffArrival', () => {
  it('round trip: a fresh hand-off is adopted as it is, capturedAt as ISO text', () => {
    expect(read(encodeHandoff(handoff) ?? '')).toEqual(adopted(handoff))
  })

  it('29 minutes old: adopted; 31 minutes old: an ordinary arrival by its code', () => {
    const value = encodeHandoff({ ...handoff, handoffAt: NOW - 29 * MINUTE }) ?? ''
    expect(read(value)).toEqual(adopted(handoff))
    expect(read(value, NOW + 2 * MINUTE)).toEqual({ code: handoff.code })
    // The bound itself: exactly 30 minutes is still fresh, a millisecond more is not.
    const edge = encodeHandoff({ ...handoff, handoffAt: NOW - HANDOFF_FRESH_MS }) ?? ''
    expect(read(edge)).toEqual(adopted(handoff))
    expect(read(edge, NOW + 1)).toEqual({ code: handoff.code })
  })

  it('no parameter, or one with nothing readable: null', () => {
    expect(handoffArrival('https://app.other.test/signup?ref=AbC123xy', NOW)).toBeNull()
    expect(handoffArrival('not a url', NOW)).toBeNull()
    for (const garbage of ['', 'x', 'h1', 'h1.', 'h2.AbC123xy.v_Q2r8kLm0Zt5XwY7pHn3b.1.1', '.....'])
      expect(read(garbage), garbage).toBeNull()
  })

  const parts = [
    'h1',
    handoff.code,
    handoff.visitorId,
    b36(handoff.capturedAt),
    b36(handoff.handoffAt),
  ]
  const withPart = (index: number, value: string) =>
    parts.map((part, i) => (i === index ? value : part)).join('.')

  // Each refused the way the cookie's reader refuses it: never adopted. With a readable code, an
  // ordinary arrival by it.
  it.each([
    ['a missing part', parts.slice(0, 4).join('.')],
    ['an extra part', `${parts.join('.')}.x`],
    ['a visitor id outside the contract', withPart(2, 'v!bad_visitor')],
    ['a visitor id too short', withPart(2, 'v_1')],
    ['a visitor id too long', withPart(2, 'v'.repeat(65))],
    ['an empty capture time', withPart(3, '')],
    ['a capture time with a leading zero', withPart(3, `0${parts[3]}`)],
    ['a capture time in upper case', withPart(3, (parts[3] ?? '').toUpperCase())],
    ['a hand-off time that is not base 36', withPart(4, 'xyz!')],
    ['a hand-off time with a sign', withPart(4, `-${parts[4]}`)],
    ['a hand-off time of 12 digits', withPart(4, 'zzzzzzzzzzzz')],
    ['a hand-off 2 minutes ahead of the reader', withPart(4, b36(NOW + 2 * MINUTE))],
    ['a capture after the hand-off', withPart(3, b36(handoff.handoffAt + 2 * MINUTE))],
    ['a capture older than the longest window', withPart(3, b36(NOW - 366 * DAY))],
    ['a value over the size limit', `${withPart(2, 'v'.repeat(64))}${'0'.repeat(20)}`],
  ])('%s: not adopted, an arrival by the code', (_, value) => {
    expect(read(value)).toEqual({ code: handoff.code })
  })

  it.each([
    ['another version', `h2.${parts.slice(1).join('.')}`],
    ['no version', parts.slice(1).join('.')],
    ['a code outside the contract', withPart(1, 'AbC-123xy')],
    ['a code too short', withPart(1, 'AbC12')],
  ])('%s: nothing to read, null', (_, value) => {
    expect(read(value)).toBeNull()
  })

  it('a time a minute ahead is still believed (the same browser, its clock nudged)', () => {
    const value = encodeHandoff({ ...handoff, handoffAt: NOW + MINUTE }) ?? ''
    expect(read(value)).toEqual(adopted(handoff))
  })

  it('the first of two parameters is read', () => {
    const first = encodeHandoff(handoff) ?? ''
    const href = `https://app.other.test/?${HANDOFF_PARAM}=${first}&${HANDOFF_PARAM}=garbage`
    expect(handoffArrival(href, NOW)).toEqual(adopted(handoff))
  })

  it('whatever the text, never throws; adopts only the exact shape, names only a contract code', () => {
    const value = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc
        .tuple(
          fc.constantFrom('h1', 'h2', 'H1', ''),
          fc.oneof(fc.stringMatching(CODE_PATTERN), fc.string()),
          fc.oneof(fc.stringMatching(CLIENT_ID_PATTERN), fc.string()),
          fc.oneof(
            fc.integer({ min: NOW - 400 * DAY, max: NOW + 5 * MINUTE }).map(b36),
            fc.constantFrom('', '0', '00', 'A'),
          ),
          fc.integer({ min: NOW - HANDOFF_FRESH_MS * 2, max: NOW + 5 * MINUTE }).map(b36),
        )
        .map((p) => p.join('.')),
    )
    fc.assert(
      fc.property(value, (text) => {
        const result = read(text)
        if (result === null) return
        expect(CODE_PATTERN.test(result.code)).toBe(true)
        expect(text.startsWith(`h1.${result.code}.`) || text === `h1.${result.code}`).toBe(true)
        if (result.visitorId === undefined) return
        // Adopted: it must be what the encoder writes for these fields.
        const [, , , captured = '', handedOff = ''] = text.split('.')
        const again = encodeHandoff({
          code: result.code,
          visitorId: result.visitorId,
          capturedAt: Date.parse(result.capturedAt),
          handoffAt: Number.parseInt(handedOff, 36),
        })
        expect(again).toBe(text)
        expect(Date.parse(result.capturedAt)).toBe(Number.parseInt(captured, 36))
      }),
      fuzzOptions,
    )
  })
})
