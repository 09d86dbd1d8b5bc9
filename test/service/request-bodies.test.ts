// Contract tests for request bodies: the 64 KiB limit, media types and malformed JSON, each
// refused without changing anything; the seed's interface plus CONTRACT.md's decisions.

import { describe, expect, test } from 'vitest'
import type { Campaign } from '../../demo/service/schemas.ts'
import { ACME, expectErrorBody } from './contract-checks.ts'
import { type Answer, campaignBody, DEMO_CAMPAIGNS, setup } from './helpers.ts'

describe('request bodies', () => {
  test.each([
    ['POST', '/v1/campaigns'],
    ['PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`],
    ['POST', '/v1/links'],
    ['POST', '/v1/events'],
  ])('%s %s over 64 KiB is 413 body_too_large', async (method, path) => {
    const { call } = setup()
    const padding = 'x'.repeat(64 * 1024)
    const body = JSON.stringify({ name: 'Too big', description: padding })
    expect(body.length).toBeGreaterThan(64 * 1024)
    const key = path === '/v1/campaigns' || method === 'PATCH' ? ACME.skTest : ACME.pkTest
    expectErrorBody(await call(method, path, { key, body }), 413, 'body_too_large')
  })

  test('exactly 64 KiB is read (not 413) and one byte more is 413', async () => {
    const { call } = setup()
    const sized = (bytes: number) => {
      const frame = JSON.stringify({ ...campaignBody(), pad: '' })
      return JSON.stringify({ ...campaignBody(), pad: 'p'.repeat(bytes - frame.length) })
    }
    const exact = sized(64 * 1024)
    expect(Buffer.byteLength(exact)).toBe(64 * 1024)
    const atLimit = await call('POST', '/v1/campaigns', { key: ACME.skTest, body: exact })
    expect(expectErrorBody(atLimit, 400, 'parameter_unknown').param).toBe('pad')
    const over = sized(64 * 1024 + 1)
    expect(Buffer.byteLength(over)).toBe(64 * 1024 + 1)
    expectErrorBody(
      await call('POST', '/v1/campaigns', { key: ACME.skTest, body: over }),
      413,
      'body_too_large',
    )
  })

  test('an oversized body creates nothing', async () => {
    const { call } = setup()
    const body = { ...campaignBody('Huge'), description: 'd'.repeat(70 * 1024) }
    await call('POST', '/v1/campaigns', { key: ACME.skTest, body })
    const listed = await call<{ total: number }>('GET', '/v1/campaigns', { key: ACME.skTest })
    expect(listed.body.total).toBe(1)
  })

  test.each([
    ['POST', '/v1/campaigns', 'text/plain'],
    ['POST', '/v1/campaigns', 'application/x-www-form-urlencoded'],
    ['POST', '/v1/campaigns', 'multipart/form-data; boundary=xyz'],
    ['POST', '/v1/campaigns', 'application/xml'],
    ['PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, 'text/plain'],
    ['PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, 'application/x-www-form-urlencoded'],
    ['POST', '/v1/links', 'text/plain'],
    // With an Authorization header this is not the beacon form.
    ['POST', '/v1/events', 'text/plain'],
    ['POST', '/v1/events', 'application/x-www-form-urlencoded'],
  ])('%s %s as %s is 415 unsupported_media_type', async (method, path, type) => {
    const { call } = setup()
    const sk = path.startsWith('/v1/campaigns')
    const body =
      method === 'PATCH'
        ? { status: 'paused' }
        : path === '/v1/links'
          ? { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_1' }
          : path === '/v1/events'
            ? { events: [{ id: 'evt_media_001', type: 'signup', visitorId: 'visitor_0001' }] }
            : campaignBody('Wrong media type')
    const answer = await call(method, path, {
      key: sk ? ACME.skTest : ACME.pkTest,
      body: JSON.stringify(body),
      headers: { 'Content-Type': type },
    })
    expectErrorBody(answer, 415, 'unsupported_media_type')
    const shown = await call<Campaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: ACME.skTest,
    })
    expect(shown.body.status).toBe('active')
  })

  test('a POST body without any Content-Type is 415', async () => {
    const { service, call } = setup()
    // A byte body, so that nothing fills in a Content-Type on the way.
    const response = await service.app.request(
      '/v1/campaigns',
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${ACME.skTest}` },
        body: new TextEncoder().encode(JSON.stringify(campaignBody())),
      },
      { incoming: { socket: { remoteAddress: '198.51.100.7' } } },
    )
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const answer: Answer = {
      status: response.status,
      headers: response.headers,
      body: await response.json(),
    }
    expectErrorBody(answer, 415, 'unsupported_media_type')
    const listed = await call<{ total: number }>('GET', '/v1/campaigns', { key: ACME.skTest })
    expect(listed.body.total).toBe(1)
  })

  test.each([
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset=UTF-8',
  ])('Content-Type %s is accepted as JSON', async (type) => {
    const { call } = setup()
    const answer = await call('POST', '/v1/campaigns', {
      key: ACME.skTest,
      body: JSON.stringify(campaignBody()),
      headers: { 'Content-Type': type },
    })
    expect(answer.status).toBe(201)
  })

  test.each([
    ['POST', '/v1/campaigns', '{'],
    ['POST', '/v1/campaigns', '{"name": }'],
    ['POST', '/v1/campaigns', "{'name':'x'}"],
    ['POST', '/v1/campaigns', ''],
    ['PATCH', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, '{"status":"paused"'],
    ['POST', '/v1/links', '{"campaignId":'],
    ['POST', '/v1/events', '{"events":[{]}'],
  ])('%s %s with body %j is 400 invalid_json', async (method, path, raw) => {
    const { call } = setup()
    const key = path === '/v1/links' || path === '/v1/events' ? ACME.pkTest : ACME.skTest
    expectErrorBody(await call(method, path, { key, body: raw }), 400, 'invalid_json')
    const shown = await call<Campaign>('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
      key: ACME.skTest,
    })
    expect(shown.body.status).toBe('active')
  })
})
