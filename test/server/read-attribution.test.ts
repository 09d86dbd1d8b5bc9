// referral-widget/server's readers of the browser's attribution: readAttribution (the cookie the
// widget wrote) and parseAttribution (the hidden form field).
import { describe, expect, it } from 'vitest'
import { encodeAttribution } from '../../src/api/attribution-cookie.ts'
import { ATTRIBUTION_COOKIE, parseAttribution, readAttribution } from '../../src/server.ts'

describe('readAttribution', () => {
  const now = Date.parse('2026-03-01T12:00:00.000Z')
  const attribution = {
    code: 'AbC123xy',
    visitorId: 'v_Q2r8kLm0Zt5XwY7pHn3b',
    capturedAt: '2026-03-01T11:00:00.000Z',
  }
  const cookie = `${ATTRIBUTION_COOKIE}=${encodeAttribution(attribution)}`

  it('gives back what the widget wrote, capturedAt as getAttribution() gives it', () => {
    expect(readAttribution(`sid=1; ${cookie}; theme=dark`, { now })).toEqual(attribution)
  })

  it.each([
    ['no header', null],
    ['an empty header', ''],
    ['other cookies only', 'sid=1; theme=dark'],
    ['a forged code', cookie.replace('AbC123xy', 'AbC<123>')],
    ['a forged version', cookie.replace('=v1.', '=v9.')],
    [
      'JSON instead of the wire form',
      `${ATTRIBUTION_COOKIE}=${encodeURIComponent(JSON.stringify(attribution))}`,
    ],
    ['an oversized value', `${cookie}${'A'.repeat(5000)}`],
    ['a megabyte of header', `${ATTRIBUTION_COOKIE}=${'v1.'.repeat(350_000)}`],
  ])('%s → null, no throw', (_what, header) => {
    expect(readAttribution(header, { now })).toBeNull()
  })
})

describe('parseAttribution (the hidden form field)', () => {
  const attribution = {
    code: 'AbC123xy',
    visitorId: 'v_Q2r8kLm0Zt5XwY7pHn3b',
    capturedAt: '2026-03-01T11:00:00.000Z',
  }
  it('takes getAttribution() as JSON text or as an object', () => {
    expect(parseAttribution(JSON.stringify(attribution))).toEqual(attribution)
    expect(parseAttribution(attribution)).toEqual(attribution)
  })
  it.each([
    ['"null"', 'null'],
    ['broken JSON', '{"code":'],
    ['an extra field', JSON.stringify({ ...attribution, userId: 'x' })],
    ['a bad code', JSON.stringify({ ...attribution, code: 'x' })],
    ['a bad visitorId', JSON.stringify({ ...attribution, visitorId: 'a b' })],
    ['a capturedAt of another form', JSON.stringify({ ...attribution, capturedAt: 'May 5' })],
    ['oversized text', ' '.repeat(600) + JSON.stringify(attribution)],
    ['an array', [attribution]],
  ])('%s → null', (_what, value) => {
    expect(parseAttribution(value)).toBeNull()
  })
})
