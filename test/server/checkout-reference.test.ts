// checkoutReference (referral-widget/server): the attribution readAttribution or parseAttribution
// gives, as the checkout reference the widget writes (WIDGET.md section 13), for a checkout the
// site's server opens itself.
import { describe, expect, it } from 'vitest'
import { makeCheckoutReference } from '../../src/api/checkout-reference.ts'
import { checkoutReference, parseAttribution, readCheckoutReference } from '../../src/server.ts'

const attribution = {
  code: 'AbC123xy',
  visitorId: 'v_visitor_0001',
  capturedAt: '2026-03-01T11:00:00.000Z',
}

describe('checkoutReference', () => {
  it('the same string as the widget’s, read back to the referral', async () => {
    const reference = await checkoutReference(attribution)
    expect(reference).toBe(await makeCheckoutReference('AbC123xy', 'v_visitor_0001'))
    expect(await readCheckoutReference(reference)).toEqual({
      code: 'AbC123xy',
      visitorId: 'v_visitor_0001',
    })
  })

  it('from a posted form field, through parseAttribution', async () => {
    const parsed = parseAttribution(JSON.stringify(attribution))
    expect(await checkoutReference(parsed)).toMatch(/^r1-AbC123xy-v_visitor_0001-[0-9a-f]{8}$/)
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a bad code', { ...attribution, code: 'x' }],
    ['an extra field', { ...attribution, userId: 'u1' }],
    ['a string', 'r1-AbC123xy-v_visitor_0001-00000000'],
  ])('null for %s, never a rejection', async (_what, value) => {
    expect(await checkoutReference(value as never)).toBeNull()
  })
})
