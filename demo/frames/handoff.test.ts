import { describe, expect, it } from 'vitest'
import { handoffArrival } from '../../src/api/handoff.ts'
import { appPageUrl, describeArrival } from './handoff.ts'
import { nextPage } from './visitor-page.ts'

const NOW = Date.UTC(2026, 0, 15, 12)
const CODE = 'AcmeFriend1'
const VISITOR = 'v_visitor000001'
const fresh = `h1.${CODE}.${VISITOR}.${(NOW - 60_000).toString(36)}.${(NOW - 1000).toString(36)}`
const arrival = (value: string | null) =>
  handoffArrival(`http://127.0.0.1:5174/demo/app.html${value ? `?ref_handoff=${value}` : ''}`, NOW)

describe('the link to the app', () => {
  it('carries the shop page’s widget settings, not its referral', () => {
    const shop = new URLSearchParams('key=pk_test_acme&campaign=camp_x&locale=de-DE&ref=ABC12345')
    expect(appPageUrl('http://127.0.0.1:5174', shop)).toBe(
      'http://127.0.0.1:5174/demo/app.html?key=pk_test_acme&campaign=camp_x&locale=de-DE',
    )
  })
})

describe('what the app’s page says of its arrival', () => {
  it('waits for the widget before it says anything', () => {
    expect(describeArrival(arrival(fresh), null)).toBe('Waiting for the widget…')
  })

  it('an adopted hand-off: the same code and visitor, no click', () => {
    expect(describeArrival(arrival(fresh), { code: CODE, visitorId: VISITOR })).toBe(
      `Hand-off adopted: code ${CODE} for visitor ${VISITOR}, as on the shop; no click sent from here.`,
    )
  })

  it('a referral held here, captured later, is kept', () => {
    expect(describeArrival(arrival(fresh), { code: 'Other1234', visitorId: 'v_other00001' })).toBe(
      `A referral captured later was kept here: code Other1234 for visitor v_other00001 (the hand-off named ${CODE}).`,
    )
  })

  it('a stale hand-off is an ordinary arrival by its code', () => {
    const stale = `h1.${CODE}.${VISITOR}.${(NOW - 3_600_000).toString(36)}.${(NOW - 3_600_000).toString(36)}`
    expect(describeArrival(arrival(stale), { code: CODE, visitorId: 'v_new0000001' })).toBe(
      `ref_handoff older than 30 minutes or unreadable past its code: an ordinary arrival by ${CODE} (one click).`,
    )
  })

  it('no hand-off at all', () => {
    expect(describeArrival(arrival(null), { code: null, visitorId: null })).toMatch(
      /^No ref_handoff in the address and no referral held/,
    )
    expect(describeArrival(arrival(null), { code: CODE, visitorId: VISITOR })).toBe(
      `No ref_handoff in the address: the referral ${CODE} was held here already.`,
    )
  })
})

describe('where a cleared visitor page goes on to', () => {
  const SHOP = 'http://localhost:5174/demo/visitor.html'
  it('only to the pages named, with their query', () => {
    expect(nextPage(`${SHOP}?clear=1&then=x`, [SHOP], SHOP)).toBe(`${SHOP}?clear=1&then=x`)
    expect(nextPage('/demo/visitor.html?ref=A', [SHOP], SHOP)).toBe(`${SHOP}?ref=A`)
    expect(nextPage('http://127.0.0.1:5174/demo/visitor.html', [SHOP], SHOP)).toBeNull()
    expect(nextPage('http://localhost:5174/demo/app.html', [SHOP], SHOP)).toBeNull()
    expect(nextPage('https://evil.example/demo/visitor.html', [SHOP], SHOP)).toBeNull()
    expect(nextPage('http://[', [SHOP], SHOP)).toBeNull()
    expect(nextPage(null, [SHOP], SHOP)).toBeNull()
  })
})
