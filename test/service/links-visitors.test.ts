// POST /v1/links with `visitorId` (extension, CONTRACT.md "Self-referrals"): the browsers that
// asked for a link, the most recent MAX_LINK_VISITORS of them, are its referrer's own.

import { describe, expect, it } from 'vitest'
import { MAX_LINK_VISITORS } from '../../demo/service/records.ts'
import type { Link } from '../../demo/service/schemas.ts'
import { click, send } from './events-support.ts'
import { DEMO_CAMPAIGNS, DEMO_KEYS, errorOf, setup } from './helpers.ts'

const ACME = DEMO_CAMPAIGNS.acme
const { pkTest, skTest } = DEMO_KEYS.acme
const LINK_FIELDS = ['campaignId', 'code', 'createdAt', 'id', 'referrerId']

type Call = ReturnType<typeof setup>['call']

const linkRequest = (call: Call, body: Record<string, unknown>, key: string = pkTest) =>
  call<Link>('POST', '/v1/links', { key, body: { campaignId: ACME, referrerId: 'alice', ...body } })

/** The status of a click by `visitorId` on `code`: `rejected` when the visitor is the link's own. */
async function clickStatus(call: Call, code: string, visitorId: string) {
  const answer = await send(call, [click(code, visitorId)])
  return answer.body.results[0]?.status
}

const visitor = (n: number) => `visitor_${String(n).padStart(2, '0')}`

describe('POST /v1/links with visitorId', () => {
  it.each([
    ['a public key', pkTest],
    ['a secret key', skTest],
  ])('answers as without it with %s: the link, never the visitor', async (_, key) => {
    const { call } = setup()
    const created = await linkRequest(call, { visitorId: 'visitor_alice' }, key)
    expect(created.status).toBe(201)
    expect(Object.keys(created.body).sort()).toEqual(LINK_FIELDS)
    expect(JSON.stringify(created.body)).not.toContain('visitor_alice')

    const again = await linkRequest(call, { visitorId: 'visitor_alice_phone' }, key)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(created.body)
  })

  it('without it, the link is made as before and no browser is its own', async () => {
    const { call } = setup()
    const created = await linkRequest(call, {})
    expect(created.status).toBe(201)
    expect(Object.keys(created.body).sort()).toEqual(LINK_FIELDS)
    expect(await clickStatus(call, created.body.code, 'visitor_alice')).toBe('accepted')
  })

  it.each([
    ['7 characters', 'visitor'],
    ['65 characters', 'v'.repeat(65)],
    ['empty', ''],
    ['with a space', 'visitor one'],
    ['with a dot', 'visitor.one'],
    ['a number', 12345678],
    ['null', null],
  ])(
    'refuses a visitorId %s: 400 parameter_invalid naming visitorId, no link made',
    async (_, visitorId) => {
      const { call } = setup()
      const answer = await linkRequest(call, { visitorId })
      expect(answer.status).toBe(400)
      expect(errorOf(answer)).toMatchObject({
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'visitorId',
      })
      expect((await linkRequest(call, {})).status).toBe(201)
    },
  )

  it('accepts 8 and 64 characters of A-Z a-z 0-9 _ -', async () => {
    const { call } = setup()
    expect((await linkRequest(call, { visitorId: 'Ab0_-xyz' })).status).toBe(201)
    expect((await linkRequest(call, { visitorId: 'Z'.repeat(64) })).status).toBe(200)
  })

  it('remembers every browser the referrer asked from: each one clicking is their own', async () => {
    const { call } = setup()
    const { code } = (await linkRequest(call, { visitorId: 'visitor_laptop' })).body
    await linkRequest(call, { visitorId: 'visitor_phone1' })
    expect(await clickStatus(call, code, 'visitor_laptop')).toBe('rejected')
    expect(await clickStatus(call, code, 'visitor_phone1')).toBe('rejected')
    expect(await clickStatus(call, code, 'visitor_friend')).toBe('accepted')
  })

  it('keeps the most recent browsers only: the oldest goes first', async () => {
    const { call } = setup()
    const { code } = (await linkRequest(call, { visitorId: visitor(0) })).body
    for (let n = 1; n <= MAX_LINK_VISITORS; n++) await linkRequest(call, { visitorId: visitor(n) })
    expect(await clickStatus(call, code, visitor(0))).toBe('accepted')
    expect(await clickStatus(call, code, visitor(1))).toBe('rejected')
    expect(await clickStatus(call, code, visitor(MAX_LINK_VISITORS))).toBe('rejected')
  })

  it('asking again from a browser makes it the most recent one', async () => {
    const { call } = setup()
    const { code } = (await linkRequest(call, { visitorId: visitor(0) })).body
    for (let n = 1; n < MAX_LINK_VISITORS; n++) await linkRequest(call, { visitorId: visitor(n) })
    await linkRequest(call, { visitorId: visitor(0) }) // the first browser asks again
    await linkRequest(call, { visitorId: visitor(MAX_LINK_VISITORS) })
    expect(await clickStatus(call, code, visitor(1))).toBe('accepted')
    expect(await clickStatus(call, code, visitor(0))).toBe('rejected')
  })

  it("is the link's own: another referrer's link in that browser is clicked as ever", async () => {
    const { call } = setup()
    await linkRequest(call, { visitorId: 'visitor_alice' })
    const bob = await linkRequest(call, { referrerId: 'bob' })
    expect(await clickStatus(call, bob.body.code, 'visitor_alice')).toBe('accepted')
  })

  it('a refused request notes no browser', async () => {
    const { call } = setup()
    const { code } = (await linkRequest(call, {})).body
    const refused = await linkRequest(call, { visitorId: 'visitor_alice', extra: true })
    expect(refused.status).toBe(400)
    expect(await clickStatus(call, code, 'visitor_alice')).toBe('accepted')
  })
})
