// Contract tests for API keys: each kind and mode authenticates, secret and public keys' rights,
// missing, invalid and malformed keys, the Bearer scheme, and rolled keys that expire after 24
// hours; the seed's interface plus CONTRACT.md's decisions.

import { describe, expect, test } from 'vitest'
import type { Campaign, EventsResponse, Link } from '../../demo/service/schemas.ts'
import { ACME, eventsBody, expectErrorBody } from './contract-checks.ts'
import { campaignBody, DAY, DEMO_CAMPAIGNS, DEMO_KEYS, HOUR, setup } from './helpers.ts'

describe('API keys', () => {
  test.each([
    ['pk_test', ACME.pkTest],
    ['sk_test', ACME.skTest],
    ['pk_live', ACME.pkLive],
    ['sk_live', ACME.skLive],
  ])('a %s key authenticates', async (_kind, key) => {
    const { call } = setup()
    const answer = await call('GET', '/v1/campaigns', { key })
    expect(answer.status).toBe(200)
  })

  test('secret keys create campaigns in their mode; public keys cannot', async () => {
    const { call } = setup()
    for (const key of [ACME.skTest, ACME.skLive]) {
      const answer = await call('POST', '/v1/campaigns', { key, body: campaignBody() })
      expect(answer.status).toBe(201)
    }
    for (const key of [ACME.pkTest, ACME.pkLive]) {
      const answer = await call('POST', '/v1/campaigns', { key, body: campaignBody() })
      expectErrorBody(answer, 403, 'secret_key_required')
    }
  })

  test.each([
    ['test', ACME.skTest, ACME.pkTest],
    ['live', ACME.skLive, ACME.pkLive],
  ])('in %s mode a public key creates links and sends events', async (_mode, sk, pk) => {
    const { call } = setup()
    const campaign = await call<Campaign>('POST', '/v1/campaigns', {
      key: sk,
      body: campaignBody(),
    })
    expect(campaign.status).toBe(201)
    const link = await call<Link>('POST', '/v1/links', {
      key: pk,
      body: { campaignId: campaign.body.id, referrerId: 'user_1' },
    })
    expect(link.status).toBe(201)
    const events = await call<EventsResponse>('POST', '/v1/events', {
      key: pk,
      body: eventsBody('evt_keys_0001', link.body.code),
    })
    expect(events.status).toBe(200)
    expect(events.body.results[0]?.status).toBe('accepted')
  })

  test.each([
    ['GET', '/v1/campaigns'],
    ['POST', '/v1/campaigns'],
    ['GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`],
    ['PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`],
    ['POST', '/v1/links'],
    ['GET', '/v1/links/abcdefgh12'],
    ['POST', '/v1/events'],
  ])('%s %s without Authorization is 401 missing_api_key', async (method, path) => {
    const { call } = setup()
    const body = method === 'GET' ? undefined : {}
    const answer = await call(method, path, body === undefined ? {} : { body })
    expectErrorBody(answer, 401, 'missing_api_key')
  })

  test.each([
    ['a well-formed unknown key', 'sk_test_nobodyHere'],
    ['another org’s key with a typo', 'pk_test_globexx'],
    ['an unknown mode', 'sk_prod_acme'],
    ['an unknown kind', 'rk_test_acme'],
    ['a too short secret', 'sk_test_acm'],
    ['a too long secret', `sk_test_${'a'.repeat(65)}`],
    ['a character outside [A-Za-z0-9]', 'sk_test_acme!'],
    ['upper-case prefix', 'SK_TEST_ACME'],
    ['a bare prefix', 'sk_test_'],
  ])('%s is 401 invalid_api_key', async (_what, key) => {
    const { call } = setup()
    expectErrorBody(await call('GET', '/v1/campaigns', { key }), 401, 'invalid_api_key')
  })

  test.each([
    ['Basic', `Basic ${Buffer.from(`${ACME.skTest}:`).toString('base64')}`],
    ['Token', `Token ${ACME.skTest}`],
    ['no scheme', ACME.skTest],
    ['Bearer without a key', 'Bearer'],
    ['Bearer with two tokens', `Bearer ${ACME.skTest} ${ACME.skTest}`],
  ])('the %s form is 401 invalid_api_key', async (_what, authorization) => {
    const { call } = setup()
    const answer = await call('GET', '/v1/campaigns', { headers: { Authorization: authorization } })
    expectErrorBody(answer, 401, 'invalid_api_key')
  })

  // RFC 7235 section 2.1: the authentication scheme is a case-insensitive token.
  test('the Bearer scheme name is case-insensitive', async () => {
    const { call } = setup()
    const answer = await call('GET', '/v1/campaigns', {
      headers: { Authorization: `bearer ${ACME.skTest}` },
    })
    expect(answer.status).toBe(200)
  })

  test('sk_test_acmeold, rolled 25 hours before start, is 401 expired_api_key', async () => {
    const { call } = setup()
    expectErrorBody(
      await call('GET', '/v1/campaigns', { key: DEMO_KEYS.acmeRolled }),
      401,
      'expired_api_key',
    )
  })

  test.each([
    ['secret', ACME.skTest],
    ['public', ACME.pkTest],
  ])(
    'a rolled %s key works 24 hours, then is 401 expired_api_key; the new key works throughout',
    async (_kind, oldKey) => {
      const { call, clock, service } = setup()
      const newKey = service.rollKey(oldKey)
      expect(newKey).toMatch(/^(pk|sk)_test_[A-Za-z0-9]{4,64}$/)
      expect(newKey.slice(0, 3)).toBe(oldKey.slice(0, 3))
      expect(newKey).not.toBe(oldKey)

      const sees = async (key: string) => {
        const answer = await call<{ data: { id: string }[] }>('GET', '/v1/campaigns', { key })
        expect(answer.status, `${key} at +${clock.now()}`).toBe(200)
        expect(answer.body.data.map((c) => c.id)).toContain(DEMO_CAMPAIGNS.acme)
      }

      await sees(newKey)
      await sees(oldKey)
      clock.advance(23 * HOUR)
      await sees(oldKey)
      clock.advance(HOUR - 1)
      await sees(oldKey)
      clock.advance(1)
      expectErrorBody(await call('GET', '/v1/campaigns', { key: oldKey }), 401, 'expired_api_key')
      await sees(newKey)
      clock.advance(30 * DAY)
      expectErrorBody(await call('GET', '/v1/campaigns', { key: oldKey }), 401, 'expired_api_key')
      await sees(newKey)
      // Other keys of the org are untouched by the roll.
      await sees(oldKey.startsWith('sk_') ? ACME.pkTest : ACME.skTest)
    },
  )

  test('the new key of a roll sees and changes the same data as the old one', async () => {
    const { call, service } = setup()
    const made = await call<Campaign>('POST', '/v1/campaigns', {
      key: ACME.skTest,
      body: campaignBody('Before the roll'),
    })
    const newKey = service.rollKey(ACME.skTest)
    const shown = await call<Campaign>('GET', `/v1/campaigns/${made.body.id}`, { key: newKey })
    expect(shown.status).toBe(200)
    expect(shown.body.name).toBe('Before the roll')
    const patched = await call('PATCH', `/v1/campaigns/${made.body.id}`, {
      key: newKey,
      body: { status: 'paused' },
    })
    expect(patched.status).toBe(200)
  })
})
