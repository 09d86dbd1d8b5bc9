// referral-widget/server's keepAttribution: the widget's cookie (which Safari deletes after seven
// days) kept in an HttpOnly cookie the site's server sets, for what is left of the campaign's
// window; and readAttribution reading the two as one, by the site's first- or last-touch rule.
import { describe, expect, it } from 'vitest'
import { encodeAttribution } from '../../src/api/attribution-cookie.ts'
import {
  ATTRIBUTION_COOKIE,
  KEPT_COOKIE,
  KEPT_COOKIE_INSECURE,
  keepAttribution,
  readAttribution,
} from '../../src/server.ts'

const DAY = 24 * 60 * 60 * 1000
const now = Date.parse('2026-03-10T12:00:00.000Z')
const first = {
  code: 'FIRST1234',
  visitorId: 'v_Q2r8kLm0Zt5XwY7pHn3b',
  capturedAt: '2026-03-01T12:00:00.000Z',
}
const second = { ...first, code: 'SECOND1234', capturedAt: '2026-03-09T12:00:00.000Z' }
const last = { windowDays: 30, firstTouch: false }
const firstTouch = { windowDays: 30, firstTouch: true }

/** The widget's cookie, as a page wrote it. */
const widget = (attribution: typeof first, rule = last) =>
  `${ATTRIBUTION_COOKIE}=${encodeAttribution(attribution, rule)}`

/** The Cookie header a browser sends back for a Set-Cookie value (its name=value part). */
const returned = (setCookie: string | null) => setCookie?.split(';')[0] ?? ''

describe('keepAttribution', () => {
  it("keeps the widget's referral, HttpOnly and Secure, for what is left of its window", () => {
    const set = keepAttribution(`sid=1; ${widget(first)}`, { now })
    expect(set).toBe(
      `${KEPT_COOKIE}=${encodeAttribution(first, last)}; Max-Age=${21 * 24 * 60 * 60}; Path=/; HttpOnly; SameSite=Lax; Secure`,
    )
  })

  it('a 90-day campaign keeps it 81 days more; a referral no page knew the campaign of, 30 days', () => {
    const ninety = keepAttribution(widget(first, { windowDays: 90, firstTouch: false }), { now })
    expect(ninety).toContain(`Max-Age=${81 * 24 * 60 * 60};`)
    // A cookie from before the window was carried reads as 30 days.
    const old = keepAttribution(`${ATTRIBUTION_COOKIE}=${encodeAttribution(first)}`, { now })
    expect(old).toContain(`Max-Age=${21 * 24 * 60 * 60};`)
  })

  it('plain-http development: secure: false drops Secure and the __Host- name', () => {
    const set = keepAttribution(widget(first), { now, secure: false })
    expect(set).toMatch(new RegExp(`^${KEPT_COOKIE_INSECURE}=.*; HttpOnly; SameSite=Lax$`))
  })

  it('asks for nothing when nothing changes, or there is nothing to keep', () => {
    const kept = returned(keepAttribution(widget(first), { now }))
    expect(keepAttribution(`${kept}; ${widget(first)}`, { now })).toBeNull()
    expect(keepAttribution(kept, { now })).toBeNull() // the widget's cookie is gone: kept as it is
    expect(keepAttribution('sid=1', { now })).toBeNull()
  })

  it("news of the same referral (its campaign's window, learned later) renews it", () => {
    const kept = returned(keepAttribution(widget(first), { now }))
    const wider = keepAttribution(
      `${kept}; ${widget(first, { windowDays: 60, firstTouch: false })}`,
      {
        now,
      },
    )
    expect(wider).toContain(`Max-Age=${51 * 24 * 60 * 60};`)
  })

  it('last touch: a later referral replaces the kept one; an earlier one never does', () => {
    const kept = returned(keepAttribution(widget(first), { now }))
    expect(keepAttribution(`${kept}; ${widget(second)}`, { now })).toContain(
      encodeAttribution(second, last),
    )
    const keptSecond = returned(keepAttribution(widget(second), { now }))
    expect(keepAttribution(`${keptSecond}; ${widget(first)}`, { now })).toBeNull()
  })

  it('first touch: the first stays within its window, whatever later link the visitor follows', () => {
    const kept = returned(keepAttribution(widget(first, firstTouch), { now }))
    expect(keepAttribution(`${kept}; ${widget(second, firstTouch)}`, { now })).toBeNull()
    expect(readAttribution(`${kept}; ${widget(second, firstTouch)}`, { now })).toEqual(first)
    // Past the first's window, the later one is kept.
    const later = now + 25 * DAY
    expect(keepAttribution(`${kept}; ${widget(second, firstTouch)}`, { now: later })).toContain(
      encodeAttribution(second, firstTouch),
    )
  })

  it.each([
    ['no header', null],
    ['a forged code', widget(first).replace('FIRST1234', 'FIRST<12>')],
    ['a forged version', widget(first).replace('=v2.', '=v9.')],
    ['an unknown rule', widget(first).replace(/\.l$/, '.x')],
    ['a window over 365 days', widget(first).replace(/\.[0-9a-z]+\.l$/, '.zz.l')],
    ['a capture past its window', widget({ ...first, capturedAt: '2026-01-01T00:00:00.000Z' })],
    ['a capture two days ahead', widget({ ...first, capturedAt: '2026-03-12T12:00:00.000Z' })],
    ['an oversized value', `${widget(first)}${'A'.repeat(5000)}`],
    ['a megabyte of header', `${ATTRIBUTION_COOKIE}=${'v2.'.repeat(350_000)}`],
    ['a header that is no string', 42 as unknown as string],
  ])('%s: nothing kept, nothing read, no throw', (_what, header) => {
    expect(keepAttribution(header, { now })).toBeNull()
    expect(readAttribution(header, { now })).toBeNull()
  })

  it('a kept value forged into the Cookie header is read as strictly as the widget’s', () => {
    const forged = `${KEPT_COOKIE}=${encodeAttribution(first, last).replace('FIRST1234', 'x')}`
    expect(readAttribution(forged, { now })).toBeNull()
    expect(keepAttribution(`${forged}; ${widget(second)}`, { now })).toContain(
      encodeAttribution(second, last),
    )
  })
})

describe('readAttribution with a kept referral', () => {
  it("reads the kept referral when Safari deleted the widget's cookie and storage", () => {
    const kept = returned(keepAttribution(widget(first), { now }))
    expect(readAttribution(`sid=1; ${kept}`, { now: now + 15 * DAY })).toEqual(first)
    // Past the window, nothing.
    expect(readAttribution(kept, { now: now + 22 * DAY })).toBeNull()
  })

  it('reads the referral the rule keeps when both cookies are there', () => {
    const kept = returned(keepAttribution(widget(first), { now }))
    expect(readAttribution(`${kept}; ${widget(second)}`, { now })).toEqual(second)
  })
})
