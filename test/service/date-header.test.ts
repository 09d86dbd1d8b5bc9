// The service dates every answer by its own clock, and lets scripts read it (CONTRACT.md, CORS):
// the widget measures the device clock against it.
import { describe, expect, it } from 'vitest'
import { DAY, setup } from './helpers.ts'

describe('Date', () => {
  it.each([
    ['a campaign list', 'GET', '/v1/campaigns', 'pk_test_acme'],
    ['an events answer', 'POST', '/v1/events', 'pk_test_acme'],
    ['a 401', 'GET', '/v1/campaigns', 'pk_test_nobody'],
    ['a 404 route', 'GET', '/v1/nothing', 'pk_test_acme'],
  ])('%s carries the service clock’s time, readable cross-origin', async (_, method, path, key) => {
    const { call, clock } = setup()
    clock.advance(400 * DAY + 1234)
    const answer = await call(method, path, {
      key,
      headers: { Origin: 'https://shop.test' },
      ...(method === 'POST' ? { body: { events: [] } } : {}),
    })
    expect(answer.headers.get('Date')).toBe(new Date(clock.now()).toUTCString())
    const exposed = answer.headers.get('Access-Control-Expose-Headers') ?? ''
    expect(exposed.split(/,\s*/)).toContain('Date')
  })
})
