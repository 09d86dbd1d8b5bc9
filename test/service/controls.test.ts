// Decisions made after review: cursors of public keys, an empty Authorization header, and the
// demo page's controls.
import { describe, expect, test } from 'vitest'
import type { PublicCampaign } from '../../src/api/schemas.ts'
import { createCampaign, DAY, DEMO_CAMPAIGNS, DEMO_KEYS, errorOf, setup } from './helpers.ts'

const SK = DEMO_KEYS.acme.skTest
const PK = DEMO_KEYS.acme.pkTest

describe('public keys and cursors', () => {
  test('a public key cannot use a paused campaign as a cursor to learn that it exists', async () => {
    const { call } = setup()
    const id = await createCampaign(call, { name: 'Hidden' })
    await call('PATCH', `/v1/campaigns/${id}`, { key: SK, body: { status: 'paused' } })
    const paused = await call('GET', `/v1/campaigns?startingAfter=${id}`, { key: PK })
    const unknown = await call('GET', '/v1/campaigns?startingAfter=camp_0000000000000000', {
      key: PK,
    })
    expect(paused.status).toBe(400)
    expect(errorOf(paused)).toEqual(errorOf(unknown))
    // The secret key still pages from it.
    const page = await call<{ data: PublicCampaign[] }>(
      'GET',
      `/v1/campaigns?startingAfter=${id}`,
      { key: SK },
    )
    expect(page.body.data.map((c) => c.id)).toEqual([DEMO_CAMPAIGNS.acme])
  })

  test('an empty Authorization header is a missing key, not an invalid one', async () => {
    const { call } = setup()
    const answer = await call('GET', '/v1/campaigns', { headers: { Authorization: '' } })
    expect(answer.status).toBe(401)
    expect(errorOf(answer).code).toBe('missing_api_key')
  })
})

describe('/demo-api controls', () => {
  test('are absent unless the service is started with them', async () => {
    const { call } = setup()
    expect((await call('POST', '/demo-api/reset')).status).toBe(404)
  })

  test('move the clock forward, and the service acts on it', async () => {
    const { call, clock } = setup({ controls: true })
    const before = clock.now()
    const answer = await call<{ now: string }>('POST', '/demo-api/clock/advance', {
      body: { ms: DAY },
    })
    expect(answer.status).toBe(200)
    expect(Date.parse(answer.body.now)).toBe(before + DAY)
    const bad = await call('POST', '/demo-api/clock/advance', { body: { ms: -5 } })
    expect(errorOf(bad)).toMatchObject({ code: 'parameter_invalid', param: 'ms' })
  })

  test('roll a public key, never a secret one', async () => {
    const { call } = setup({ controls: true })
    const rolled = await call<{ key: string }>('POST', '/demo-api/keys/roll', { body: { key: PK } })
    expect(rolled.body.key).toMatch(/^pk_test_[A-Za-z0-9]{4,64}$/)
    expect((await call('GET', '/v1/campaigns', { key: rolled.body.key })).status).toBe(200)
    expect((await call('GET', '/v1/campaigns', { key: PK })).status).toBe(200)
    const secret = await call('POST', '/demo-api/keys/roll', { body: { key: SK } })
    expect(secret.status).toBe(400)
    expect(JSON.stringify(secret.body)).not.toMatch(/sk_test_[A-Za-z0-9]{5,}/)
  })

  test('reset brings back the demo data and forgets the rest', async () => {
    const { call } = setup({ controls: true })
    await call('PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: SK,
      body: { status: 'paused' },
    })
    expect((await call('POST', '/demo-api/reset')).status).toBe(200)
    const detail = await call<{ status: string }>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: SK,
    })
    expect(detail.body.status).toBe('active')
  })
})
