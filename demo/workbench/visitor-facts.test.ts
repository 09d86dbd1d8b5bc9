import { describe, expect, it } from 'vitest'
import { handoffVerdict, sideOf } from './visitor-facts.ts'

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
