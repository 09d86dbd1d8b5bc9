import { describe, expect, it } from 'vitest'
import {
  handoffVerdict,
  heardSelfReferral,
  ownArrivalVerdict,
  referrerArrivalUrl,
  sideOf,
} from './visitor-facts.ts'

const ORIGINS = { visitor: 'http://localhost:5174', app: 'http://127.0.0.1:5174' }
const state = (href: string, attribution: string | null, visitorId: string | null) => ({
  href,
  attribution,
  visitorId,
})

describe('where the visitor is', () => {
  it('on the shop, the app, or neither', () => {
    expect(
      sideOf(state('http://localhost:5174/demo/visitor.html?key=k', 'C0de1234', 'v_1'), ORIGINS),
    ).toEqual({
      site: 'shop',
      origin: 'http://localhost:5174',
      code: 'C0de1234',
      visitorId: 'v_1',
    })
    expect(sideOf(state('http://127.0.0.1:5174/demo/app.html', null, null), ORIGINS).site).toBe(
      'app',
    )
    expect(sideOf(state('http://localhost:5173/', null, null), ORIGINS).site).toBe('other')
    expect(sideOf(state('not a url', null, null), ORIGINS)).toMatchObject({
      site: 'other',
      origin: '',
    })
  })
})

describe('the hand-off, as the app shows it against the shop', () => {
  const shop = sideOf(state('http://localhost:5174/demo/visitor.html', 'C0de1234', 'v_1'), ORIGINS)
  const app = (code: string | null, visitorId: string | null) =>
    sideOf(state('http://127.0.0.1:5174/demo/app.html', code, visitorId), ORIGINS)

  it('adopted: the same code and visitor id', () => {
    expect(handoffVerdict(shop, app('C0de1234', 'v_1'))).toEqual({
      adopted: true,
      text: 'adopted: the same code and visitor id as on the shop',
    })
  })

  it.each([
    [app('C0de1234', 'v_2'), 'not the shop’s: there C0de1234 for visitor v_1'],
    [app('Other123', 'v_1'), 'not the shop’s: there C0de1234 for visitor v_1'],
    [app(null, null), 'not adopted: the app holds no referral'],
  ])('not adopted: %j', (side, text) => {
    expect(handoffVerdict(shop, side)).toEqual({ adopted: false, text })
  })

  it('nothing to compare with when the shop held no referral', () => {
    expect(handoffVerdict(null, app('C0de1234', 'v_1')).text).toBe(
      'no referral held on the shop to compare with',
    )
  })
})

describe("the share link in the referrer's own browser", () => {
  const MAIN = 'http://localhost:5173'
  const SHARE = 'http://localhost:5174/demo/visitor.html?key=pk_test_acme&ref=C0de1234'

  it("opens the same page on the demo page's origin, a new address each time", () => {
    expect(referrerArrivalUrl(SHARE, MAIN, 3)).toBe(
      'http://localhost:5173/demo/visitor.html?key=pk_test_acme&ref=C0de1234&n=3',
    )
    const page = sideOf(state(referrerArrivalUrl(SHARE, MAIN, 4), null, 'v_1'), {
      ...ORIGINS,
      main: MAIN,
    })
    expect(page.site).toBe('referrer')
  })

  const event = (name: string, detail: string, at: number, source = 'visitor') => ({
    source,
    name,
    detail,
    at,
  })

  it("hears the visitor page's selfreferral since it was opened, newest first", () => {
    const events = [
      event('selfreferral', '{"code":"N3wer123"}', 30),
      event('selfreferral', '{"code":"0lder123"}', 10),
      event('selfreferral', '{"code":"Pr3act12"}', 40, 'Preact'),
      event('ready', '{}', 20),
    ]
    expect(heardSelfReferral(events, 20)).toBe('N3wer123')
    expect(heardSelfReferral(events, 31)).toBeNull()
    expect(heardSelfReferral([event('selfreferral', 'not json', 5)], 0)).toBe('?')
  })

  it('says the outcome: own link, a click counted, or not yet', () => {
    const side = (code: string | null) =>
      sideOf(state(`${MAIN}/demo/visitor.html`, code, 'v_1'), { ...ORIGINS, main: MAIN })
    expect(ownArrivalVerdict('C0de1234', side(null))).toEqual({
      own: true,
      text: 'your own link (C0de1234): no click counted, no referral held',
    })
    expect(ownArrivalVerdict(null, side('C0de1234'))).toEqual({
      own: false,
      text: 'counted as a visitor’s click on C0de1234: not known as own',
    })
    expect(ownArrivalVerdict(null, null).text).toBe('waiting for the widget…')
  })
})
