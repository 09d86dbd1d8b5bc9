// POST /v1/links and GET /v1/links/:code, as CONTRACT.md "Links" describes them.

import { describe, expect, it } from 'vitest'
import type { Link } from '../../demo/service/schemas.ts'
import { createCampaign, DAY, DEMO_CAMPAIGNS, DEMO_KEYS, errorOf, setup } from './helpers.ts'

const ACME = DEMO_CAMPAIGNS.acme
const { pkTest, skTest, pkLive, skLive } = DEMO_KEYS.acme

type Call = ReturnType<typeof setup>['call']

async function setStatus(call: Call, id: string, status: 'active' | 'paused' | 'archived') {
  const answer = await call('PATCH', `/v1/campaigns/${id}`, { key: skTest, body: { status } })
  expect(answer.status).toBe(200)
}

const linkRequest = (call: Call, key: string, campaignId: string, referrerId: string) =>
  call<Link>('POST', '/v1/links', { key, body: { campaignId, referrerId } })

describe('POST /v1/links', () => {
  it.each([
    ['a public key', pkTest],
    ['a secret key', skTest],
  ])(
    'creates a link with %s: 201 with id, code, campaignId, referrerId, createdAt',
    async (_, key) => {
      const { call, clock } = setup()
      const answer = await linkRequest(call, key, ACME, 'user_42')

      expect(answer.status).toBe(201)
      expect(answer.body.id).toMatch(/^link_[A-Za-z0-9_-]+$/)
      expect(answer.body.code).toMatch(/^[A-Za-z0-9]{8,12}$/)
      expect(answer.body.campaignId).toBe(ACME)
      expect(answer.body.referrerId).toBe('user_42')
      expect(answer.body.createdAt).toBe(new Date(clock.now()).toISOString())
    },
  )

  it('answers 200 with the same link when asked again for the same campaign and referrer', async () => {
    const { call, clock } = setup()
    const first = await linkRequest(call, pkTest, ACME, 'user_42')
    expect(first.status).toBe(201)

    clock.advance(DAY)
    const again = await linkRequest(call, pkTest, ACME, 'user_42')
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
  })

  it('is idempotent across key types: a secret key asking again gets the same link', async () => {
    const { call } = setup()
    const first = await linkRequest(call, pkTest, ACME, 'user_42')
    const again = await linkRequest(call, skTest, ACME, 'user_42')
    expect(first.status).toBe(201)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
  })

  it('gives a different referrer a different link and code', async () => {
    const { call } = setup()
    const alice = await linkRequest(call, pkTest, ACME, 'alice')
    const bob = await linkRequest(call, pkTest, ACME, 'bob')
    expect(alice.status).toBe(201)
    expect(bob.status).toBe(201)
    expect(bob.body.code).not.toBe(alice.body.code)
    expect(bob.body.id).not.toBe(alice.body.id)
    expect(bob.body.referrerId).toBe('bob')
  })

  it('gives the same referrer a different link in another campaign', async () => {
    const { call } = setup()
    const other = await createCampaign(call)
    const first = await linkRequest(call, pkTest, ACME, 'alice')
    const second = await linkRequest(call, pkTest, other, 'alice')
    expect(second.status).toBe(201)
    expect(second.body.campaignId).toBe(other)
    expect(second.body.code).not.toBe(first.body.code)
  })

  describe('referrerId validation', () => {
    it.each([
      ['one character', 'a'],
      ['128 characters', 'a'.repeat(128)],
      ['every allowed punctuation mark', 'A.b_c-d:e@f9'],
      ['an e-mail address', 'jane.doe@example.com'],
    ])('accepts %s', async (_, referrerId) => {
      const { call } = setup()
      const answer = await linkRequest(call, pkTest, ACME, referrerId)
      expect(answer.status).toBe(201)
      expect(answer.body.referrerId).toBe(referrerId)
    })

    it.each([
      ['empty', ''],
      ['129 characters', 'a'.repeat(129)],
      ['with a space', 'jane doe'],
      ['with markup', '<script>'],
      ['with a slash', 'a/b'],
      ['with a non-ASCII letter', 'jöhn'],
      ['not a string', 42],
      ['null', null],
    ])(
      'refuses a referrerId %s: 400 parameter_invalid naming referrerId',
      async (_, referrerId) => {
        const { call } = setup()
        const answer = await call('POST', '/v1/links', {
          key: pkTest,
          body: { campaignId: ACME, referrerId },
        })
        expect(answer.status).toBe(400)
        expect(errorOf(answer)).toMatchObject({
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'referrerId',
        })
      },
    )

    it('refuses a missing referrerId: 400 parameter_missing naming referrerId', async () => {
      const { call } = setup()
      const answer = await call('POST', '/v1/links', { key: pkTest, body: { campaignId: ACME } })
      expect(answer.status).toBe(400)
      expect(errorOf(answer)).toMatchObject({
        type: 'invalid_request_error',
        code: 'parameter_missing',
        param: 'referrerId',
      })
    })

    it('refuses a missing campaignId: 400 parameter_missing naming campaignId', async () => {
      const { call } = setup()
      const answer = await call('POST', '/v1/links', { key: pkTest, body: { referrerId: 'alice' } })
      expect(answer.status).toBe(400)
      expect(errorOf(answer)).toMatchObject({ code: 'parameter_missing', param: 'campaignId' })
    })

    it('makes no link when the request is refused', async () => {
      const { call } = setup()
      await call('POST', '/v1/links', {
        key: pkTest,
        body: { campaignId: ACME, referrerId: 'a'.repeat(129) },
      })
      // The first valid request for a referrer is a creation (201), so nothing was stored before.
      const answer = await linkRequest(call, pkTest, ACME, 'a'.repeat(128))
      expect(answer.status).toBe(201)
    })
  })

  describe('campaigns that cannot take links', () => {
    it('answers 404 resource_missing for an unknown campaign id', async () => {
      const { call } = setup()
      const answer = await linkRequest(call, pkTest, 'camp_doesNotExist0000000', 'alice')
      expect(answer.status).toBe(404)
      expect(errorOf(answer)).toMatchObject({ type: 'not_found_error', code: 'resource_missing' })
    })

    it.each([
      ['public', DEMO_KEYS.acme.pkTest],
      ['secret', DEMO_KEYS.acme.skTest],
    ])("answers 404 for another organization's campaign (%s key)", async (_, key) => {
      const { call } = setup()
      const answer = await linkRequest(call, key, DEMO_CAMPAIGNS.globex, 'alice')
      expect(answer.status).toBe(404)
      expect(errorOf(answer)).toMatchObject({ type: 'not_found_error', code: 'resource_missing' })
    })

    it.each([
      ['public', pkLive],
      ['secret', skLive],
    ])("answers 404 for the other mode's campaign (%s live key, test campaign)", async (_, key) => {
      const { call } = setup()
      const answer = await linkRequest(call, key, ACME, 'alice')
      expect(answer.status).toBe(404)
      expect(errorOf(answer)).toMatchObject({ type: 'not_found_error', code: 'resource_missing' })
    })

    it.each([
      ['paused', pkTest],
      ['paused', skTest],
      ['archived', pkTest],
      ['archived', skTest],
    ] as const)('answers 409 campaign_not_active for a %s campaign (%s)', async (status, key) => {
      const { call } = setup()
      const id = await createCampaign(call)
      await setStatus(call, id, status)

      const answer = await linkRequest(call, key, id, 'alice')
      expect(answer.status).toBe(409)
      expect(errorOf(answer)).toMatchObject({
        type: 'invalid_request_error',
        code: 'campaign_not_active',
      })
    })

    it('refuses even an existing link while its campaign is paused, and gives it back once active again', async () => {
      const { call } = setup()
      const id = await createCampaign(call)
      const first = await linkRequest(call, pkTest, id, 'alice')
      expect(first.status).toBe(201)

      await setStatus(call, id, 'paused')
      const whilePaused = await linkRequest(call, pkTest, id, 'alice')
      expect(whilePaused.status).toBe(409)
      expect(errorOf(whilePaused).code).toBe('campaign_not_active')

      await setStatus(call, id, 'active')
      const again = await linkRequest(call, pkTest, id, 'alice')
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
    })
  })
})

describe('GET /v1/links/:code', () => {
  it.each([
    ['a public key', pkTest],
    ['a secret key', skTest],
  ])('resolves a code to its link with %s', async (_, key) => {
    const { call } = setup()
    const created = await linkRequest(call, pkTest, ACME, 'alice')

    const answer = await call<Link>('GET', `/v1/links/${created.body.code}`, { key })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(created.body)
  })

  it('resolves each code to its own referrer', async () => {
    const { call } = setup()
    const alice = await linkRequest(call, pkTest, ACME, 'alice')
    const bob = await linkRequest(call, pkTest, ACME, 'bob')

    const answer = await call<Link>('GET', `/v1/links/${bob.body.code}`, { key: pkTest })
    expect(answer.body.referrerId).toBe('bob')
    const other = await call<Link>('GET', `/v1/links/${alice.body.code}`, { key: pkTest })
    expect(other.body.referrerId).toBe('alice')
  })

  it.each([
    ['a well-formed unknown code', 'ZZZZZZZZZZ'],
    ['a malformed code', 'no'],
  ])('answers 404 resource_missing for %s', async (_, code) => {
    const { call } = setup()
    await linkRequest(call, pkTest, ACME, 'alice')
    const answer = await call('GET', `/v1/links/${code}`, { key: pkTest })
    expect(answer.status).toBe(404)
    expect(errorOf(answer)).toMatchObject({ type: 'not_found_error', code: 'resource_missing' })
  })

  it.each([
    ["another organization's public key", DEMO_KEYS.globex.pkTest],
    ["another organization's secret key", DEMO_KEYS.globex.skTest],
    ["the other mode's public key", pkLive],
    ["the other mode's secret key", skLive],
  ])('answers 404 for a code made in another world, asked with %s', async (_, key) => {
    const { call } = setup()
    const created = await linkRequest(call, pkTest, ACME, 'alice')
    expect(created.status).toBe(201)

    const answer = await call('GET', `/v1/links/${created.body.code}`, { key })
    expect(answer.status).toBe(404)
    expect(errorOf(answer)).toMatchObject({ type: 'not_found_error', code: 'resource_missing' })
  })
})
